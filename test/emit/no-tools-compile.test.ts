// Issue 45 #13: a spec with no tools (resources or prompts only, or nothing yet) generates a package that
// compiles under its own tsconfig.json (noUnusedLocals, noUnusedParameters, strict), like every other spec.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../helpers.js';
import { createProgram } from '../support/compiler-host.js';

// Inside the repository, so the generated imports resolve @mcpgen/runtime from its node_modules.
const base = join(ROOT, '.tmp', `no-tools-${process.pid}`);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const SPECS: [string, string][] = [
  ['prompts only', "prompts:\n  - { name: greet, arguments: [{ name: who, required: true }] }\n"],
  ['resources only', "resources:\n  - { uri: 'file:///readme', name: readme, mimeType: text/plain }\nresourceTemplates:\n  - { uriTemplate: 'file:///docs/{page}', name: docs }\n"],
  ['nothing yet', ''],
];

/**
 * tsc with the package's own tsconfig.json, as its team runs it. The three programs share their parsed
 * declaration files (support/compiler-host.ts: lib.dom, @types/node, the SDK's; 3 s of CPU each fresh).
 */
function compileWithOwnTsconfig(dir: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(dir, 'tsconfig.json'), { noEmit: true }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const program = createProgram(config.fileNames, config.options);
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('a spec without tools', () => {
  it.each(SPECS)('%s: the generated package compiles under its own tsconfig', async (name, body) => {
    const dir = join(base, name.replaceAll(' ', '-'));
    mkdirSync(dir, { recursive: true });
    const spec = join(dir, 'spec.yaml');
    writeFileSync(spec, `mcpgen: 1\nserver: { name: notools, version: 1.0.0 }\n${body}`);
    const r = await cli(['generate', spec, '--out', join(dir, 'out')], dir);
    expect(r.code, r.stderr).toBe(0);
    const pkg = join(dir, 'out', 'notools');
    expect(readdirSync(pkg)).toContain('tsconfig.json');
    expect(compileWithOwnTsconfig(pkg)).toEqual([]);
  });
});
