import { describe, expect, it } from 'vitest';
import { compileResult } from '../support/servers.js';

describe('generated output', () => {
  it('compiles with tsc --strict --noUncheckedIndexedAccess --exactOptionalPropertyTypes --noUnusedLocals --noUnusedParameters as ESM', () => {
    const result = compileResult();
    expect(result.files).toBeGreaterThanOrEqual(5 * 8);
    expect(result.diagnostics).toEqual([]);
  });
});

describe('docs/generated-code.md usage example', () => {
  it('typechecks against the generated sql package', async () => {
    const { readFileSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const ts = (await import('typescript')).default;
    const { ROOT } = await import('../support/servers.js');
    const readme = readFileSync(join(ROOT, 'docs/generated-code.md'), 'utf8');
    const block = /```ts\n(import \{ createSqlServer \}[\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const dir = join(ROOT, '.tmp/readme');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'example.ts');
    writeFileSync(file, block!.replaceAll("'./generated/", "'../../generated/"));
    const program = ts.createProgram([file], {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, skipLibCheck: true, noEmit: true, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });
});
