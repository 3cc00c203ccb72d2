import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { definition as WeatherDefinition } from '../../generated/weather/definition.js';
import type { WeatherHandlers } from '../../generated/weather/server.js';
import { createMcpgenServer } from '../../src/runtime/server/index.js';
import { ROOT, tempDir } from '../helpers.js';
import { importCompiled } from '../support/servers.js';

describe('protocol.legacy', () => {
  it('serves a 2025-11-25 client (initialize handshake) when the spec asks for it, and refuses it otherwise', async () => {
    const { definition } = await importCompiled<{ definition: typeof WeatherDefinition }>('weather', 'definition.js');
    const { handlers } = await importCompiled<{ handlers: WeatherHandlers }>('weather', 'handlers.js');
    for (const legacy of [true, false]) {
      const running = await createMcpgenServer(definition, handlers, { legacy }).listen({ port: 0 });
      const client = new Client({ name: 'old', version: '1' }); // default negotiation: the 2025 initialize sequence
      try {
        if (legacy) {
          await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
          const r = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
          expect(r.structuredContent).toEqual({ sum: 3 });
        } else {
          await expect(client.connect(new StreamableHTTPClientTransport(new URL(running.url)))).rejects.toThrow();
        }
      } finally {
        await client.close().catch(() => {});
        await running.close(500);
      }
    }
  });
});

describe('mcpgen generate --watch', () => {
  it('regenerates when a spec changes', async () => {
    const dir = tempDir();
    const spec = join(dir, 'specs/w.yaml');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'specs'));
    writeFileSync(spec, 'mcpgen: 1\nserver: { name: w, version: "1" }\ntools:\n  - name: first\n');
    const child = spawn(process.execPath, [join(ROOT, 'bin/mcpgen.js'), 'generate', 'specs/w.yaml', '--out', 'out', '--watch'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const until = async (ok: () => boolean, what: string) => {
      for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 100));
      if (!ok()) throw new Error(`${what} did not happen: ${stderr}`);
    };
    try {
      await until(() => stderr.includes('watching'), 'watch start');
      expect(existsSync(join(dir, 'out/w/server.ts'))).toBe(true);
      writeFileSync(spec, 'mcpgen: 1\nserver: { name: w, version: "1" }\ntools:\n  - name: second\n');
      await until(() => readFileSync(join(dir, 'out/w/server.ts'), 'utf8').includes('second('), 'regeneration');
    } finally {
      child.kill('SIGINT');
    }
  });
});
