// Generated servers started the way hosts start them (a `command`/`args` stdio launch, or main.js --http)
// meet the official client with its DEFAULT options, which open with the 2025-11-25 initialize: served by
// default (protocol.legacy is on unless the spec turns it off), refused with -32022 and a one-line hint
// on stderr when the spec says `legacy: false`.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, cli } from '../helpers.js';
import { compiledMain, startScript } from '../support/servers.js';

const HINT = /^mcpgen: refused a 2025-11-25 client \(it opened with initialize\): .*protocol\.legacy: false.*remove that key/m;

async function callAdd(client: Client): Promise<unknown> {
  return (await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).structuredContent;
}

describe('a generated server launched as a host launches it', () => {
  it('answers the official client with default options over stdio (command/args) and HTTP, through initialize', async () => {
    const stdio = new Client({ name: 'host', version: '1' });
    await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [compiledMain('weather')], stderr: 'ignore' }));
    try {
      expect(stdio.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      expect(await callAdd(stdio)).toEqual({ sum: 3 });
    } finally {
      await stdio.close();
    }
    const server = await startScript(compiledMain('weather'));
    const http = new Client({ name: 'host', version: '1' });
    try {
      await http.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      expect(http.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      expect(await callAdd(http)).toEqual({ sum: 3 });
    } finally {
      await http.close();
      await server.stop();
    }
  });

  describe('with protocol.legacy: false', () => {
    const dir = join(ROOT, `.tmp/legacy-off-${process.pid}`);
    let main = '';
    beforeAll(async () => {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(join(dir, 'out/weather'), { recursive: true });
      const spec = readFileSync(join(ROOT, 'specs/weather.yaml'), 'utf8').replace(/^ {2}legacy: true$/m, '  legacy: false');
      expect(spec).toContain('legacy: false');
      writeFileSync(join(dir, 'weather.yaml'), spec);
      copyFileSync(join(ROOT, 'generated/weather/handlers.ts'), join(dir, 'out/weather/handlers.ts'));
      const generated = await cli(['generate', 'weather.yaml', '--out', 'out'], dir);
      expect(generated.code, generated.stderr).toBe(0);
      const src = join(dir, 'out/weather');
      const files = ['client.ts', 'definition.ts', 'handlers.ts', 'index.ts', 'main.ts', 'openai.ts', 'server.ts', 'types.ts'].map((f) => join(src, f));
      const program = ts.createProgram(files, {
        target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'], strict: true, skipLibCheck: true, rootDir: src, outDir: join(src, 'dist'),
      });
      const emitted = program.emit();
      expect(ts.getPreEmitDiagnostics(program).concat(emitted.diagnostics).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
      writeFileSync(join(src, 'dist/package.json'), '{ "type": "module" }\n');
      main = join(src, 'dist/main.js');
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('refuses the default-options client over stdio with -32022 and says on stderr why and how to allow it', async () => {
      const transport = new StdioClientTransport({ command: process.execPath, args: [main], stderr: 'pipe' });
      let stderr = '';
      transport.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
      const client = new Client({ name: 'host', version: '1' });
      try {
        const error = await client.connect(transport).then(() => undefined, (e: unknown) => e as { code?: number; message?: string });
        expect(error?.code, error?.message).toBe(-32022);
        for (let i = 0; i < 50 && !HINT.test(stderr); i++) await new Promise((r) => setTimeout(r, 100));
        expect(stderr).toMatch(HINT);
        expect(stderr.trim().split('\n')).toHaveLength(1);
      } finally {
        await client.close().catch(() => {});
      }
      // A 2026-07-28 client is served by the same launch.
      const modern = new Client({ name: 'host', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await modern.connect(new StdioClientTransport({ command: process.execPath, args: [main], stderr: 'ignore' }));
      try {
        expect(await callAdd(modern)).toEqual({ sum: 3 });
      } finally {
        await modern.close();
      }
    });

    it('refuses it over HTTP the same way', async () => {
      const server = await startScript(main);
      const client = new Client({ name: 'host', version: '1' });
      try {
        const error = await client.connect(new StreamableHTTPClientTransport(new URL(server.url))).then(() => undefined, (e: unknown) => e as { code?: number; message?: string });
        expect(JSON.stringify(error) + String(error?.message)).toMatch(/-32022|Unsupported protocol version/);
        for (let i = 0; i < 50 && !HINT.test(server.stderr()); i++) await new Promise((r) => setTimeout(r, 100));
        expect(server.stderr()).toMatch(HINT);
      } finally {
        await client.close().catch(() => {});
        await server.stop();
      }
    });
  });
});
