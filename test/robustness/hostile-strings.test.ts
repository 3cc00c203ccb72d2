// Spec strings that try to break out of string literals, comments and headers: the generated code must
// compile, contain no injected code, and carry every string byte-exact through tools/list and the
// typed client. Property names that are not identifiers work, without prototype pollution.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/pipeline.js';
import { ROOT } from '../support/servers.js';

const P = '*/ /* `${process.exit(1)}` " \' \\ </script> \u2028\u2029 \u0000 😀 \u202e\u200f end';
const HEADER = 'A`|~^';
const DIR = join(ROOT, '.tmp/hostile');

const spec = {
  mcpgen: 1,
  server: { name: 'hostile', version: '1.0.0', title: P, description: P, instructions: P },
  tools: [
    {
      name: 'echo',
      title: P,
      description: P,
      input: {
        type: 'object',
        description: P,
        properties: {
          'my-field': { type: 'string', description: P, default: P, 'x-mcp-header': HEADER },
          choice: { type: 'string', enum: [P, 'plain'] },
          constructor: { type: 'string', title: P },
          '*/': { type: 'integer' },
        } as Record<string, unknown>,
        required: ['my-field'],
      },
      output: { type: 'object', additionalProperties: true },
    },
  ],
  resources: [{ uri: 'test://x/%E2%9C%93?q=*/', name: 'hostile_resource', title: P, description: P, mimeType: 'text/plain' }],
  resourceTemplates: [{ uriTemplate: 'test://t/{id}', name: 'hostile_template', description: P }],
  prompts: [{ name: P, description: P, arguments: [{ name: 'arg"1', description: P, required: true }] }],
};

function tokens(file: string): { identifiers: Set<string> } {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, readFileSync(file, 'utf8'));
  const identifiers = new Set<string>();
  for (let t = scanner.scan(); t !== ts.SyntaxKind.EndOfFileToken; t = scanner.scan()) if (t === ts.SyntaxKind.Identifier) identifiers.add(scanner.getTokenValue());
  return { identifiers };
}

describe('hostile strings in a spec', () => {
  it('generate, compile, serve and round-trip every string byte-exact', async () => {
    rmSync(DIR, { recursive: true, force: true });
    mkdirSync(DIR, { recursive: true });
    // A `__proto__` property must be an own key (JSON.parse makes one; an object literal would not).
    Object.defineProperty(spec.tools[0]!.input.properties, '__proto__', { value: JSON.parse('{"type": "object", "properties": {"polluted": {"type": "boolean"}}}'), enumerable: true, writable: true, configurable: true });
    // stringify spells NUL and U+2028 as YAML escapes: a raw NUL is not allowed in YAML text.
    const yamlText = stringify(spec);
    expect(yamlText).toContain('__proto__:');
    writeFileSync(join(DIR, 'hostile.yaml'), yamlText);
    const result = await generate([join(DIR, 'hostile.yaml')], DIR, { out: 'out' });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const pkg = join(DIR, 'out/hostile');
    writeFileSync(
      join(pkg, 'handlers.ts'),
      `import type { HostileHandlers } from './server.js';
export const handlers: HostileHandlers = {
  echo(args) { return { ...args, protoIsClean: Object.getPrototypeOf(args) === Object.prototype && ({} as Record<string, unknown>).polluted === undefined }; },
  readHostileResource() { return ${JSON.stringify(P)}; },
  readHostileTemplate(v) { return v.id; },
  ${'prompt' + 'ProcessExit1ScriptEnd'}(args) { return args['arg"1']; },
};
`,
    );
    const serverSource = readFileSync(join(pkg, 'server.ts'), 'utf8');
    const promptMethod = /(prompt\w+)\(args/.exec(serverSource)![1]!;
    writeFileSync(join(pkg, 'handlers.ts'), readFileSync(join(pkg, 'handlers.ts'), 'utf8').replace('promptProcessExit1ScriptEnd', promptMethod));

    const files = readdirSync(pkg).filter((f) => f.endsWith('.ts')).map((f) => join(pkg, f));
    const program = ts.createProgram(files, {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, noUnusedLocals: true, noUnusedParameters: true, skipLibCheck: true, outDir: join(DIR, "js"), rootDir: pkg,
    });
    const emit = program.emit();
    const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emit.diagnostics].map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);

    // No spec text became code: the payload's identifiers never appear outside literals and comments.
    for (const f of files.filter((f) => !f.endsWith('handlers.ts'))) {
      const { identifiers } = tokens(f);
      expect([...identifiers].filter((i) => ['process', 'exit', 'script'].includes(i)), f).toEqual([]);
    }

    const js = join(DIR, 'js');
    const { createHostileServer } = await import(join(js, 'server.js'));
    const { handlers } = await import(join(js, 'handlers.js'));
    const { HostileClient } = await import(join(js, 'client.js'));
    const { definition } = await import(join(js, 'definition.js'));
    const running = await createHostileServer(handlers).listen({ port: 0 });
    const client = await HostileClient.connect({ url: running.url });
    try {
      const tools = await client.listAllTools();
      expect(tools).toEqual(definition.tools.map((t: { definition: unknown }) => t.definition));
      expect(tools[0].title).toBe(P);
      expect(tools[0].inputSchema.properties['my-field'].default).toBe(P);
      expect(tools[0].inputSchema.properties['my-field']['x-mcp-header']).toBe(HEADER);
      const discover = await client.sdk.discover();
      expect(discover.instructions).toBe(P);
      const args = JSON.parse(`{"my-field": ${JSON.stringify(P)}, "choice": ${JSON.stringify(P)}, "constructor": ${JSON.stringify(P)}, "*/": 7, "__proto__": {"polluted": true}}`);
      const echoed = await client.echo(args);
      expect(echoed.isError).toBe(false);
      expect(echoed.structuredContent['my-field']).toBe(P);
      expect(echoed.structuredContent.choice).toBe(P);
      expect(echoed.structuredContent.constructor).toBe(P);
      expect(echoed.structuredContent['*/']).toBe(7);
      expect(echoed.structuredContent.protoIsClean).toBe(true);
      expect(Object.hasOwn(tools[0].inputSchema.properties, '__proto__')).toBe(true);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(((await client.readHostileResource()).contents[0] as { text: string }).text).toBe(P);
      expect(((await client.readHostileTemplate({ id: 'a b,c?#%é' })).contents[0] as { text: string }).text).toBe('a b,c?#%é');
      await expect(client.readHostileTemplate({ id: 'a b/c' })).rejects.toMatchObject({ code: -32602 }); // "/" leaves the {id} segment
      const prompt = await client[promptMethod]({ 'arg"1': P });
      expect(prompt.messages[0].content.text).toBe(P);
      expect(prompt.description).toBe(P);
    } finally {
      await client.close();
      await running.close(500);
    }
  });
});
