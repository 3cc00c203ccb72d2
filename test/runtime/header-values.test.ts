// Mcp-Param-* values (transport rules V2/V6, H12): raw non-ASCII bytes as they arrive on a real socket,
// and integers compared exactly the way the SDK's own McpServer compares them (verdicts checked side by side).
import { connect } from 'node:net';
import { McpServer, createMcpHandler, fromJsonSchema } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpgenServer, type RunningServer, type ServerDefinition } from '../../packages/runtime/src/server/index.js';

const INPUT = {
  type: 'object',
  properties: { name: { type: 'string', 'x-mcp-header': 'Name' }, n: { type: 'integer', 'x-mcp-header': 'N' } },
} as const;

const definition: ServerDefinition = {
  info: { name: 'headers', version: '1.0.0' },
  capabilities: { tools: {} },
  listCache: { ttlMs: 0, cacheScope: 'private' },
  tools: [{
    definition: { name: 'pick', inputSchema: INPUT as never },
    method: 'pick',
    headers: [{ header: 'Name', path: ['name'], type: 'string' }, { header: 'N', path: ['n'], type: 'integer' }],
    elicit: {},
  }],
  resources: [],
  resourceTemplates: [],
  prompts: [],
};

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
let calls = 0;
const server = createMcpgenServer(definition, { pick: () => { calls++; return 'ran'; } });
let running: RunningServer;
beforeAll(async () => {
  running = await server.listen({ port: 0 });
});
afterAll(() => running.close(500));

function body(args: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'pick', arguments: args, _meta: META } });
}

/** One POST over a raw socket, headers written byte for byte; answers the status and the JSON-RPC error code. */
function rawPost(paramHeaders: Buffer, json: string): Promise<{ status: number; code: number | undefined }> {
  const payload = Buffer.from(json, 'utf8');
  const head = Buffer.from(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${running.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      `Mcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: pick\r\nContent-Length: ${payload.length}\r\nConnection: close\r\n`,
    'latin1',
  );
  return new Promise((resolve, reject) => {
    const socket = connect(running.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]);
      const split = text.indexOf('\r\n\r\n');
      const json = /transfer-encoding: chunked/i.test(text.slice(0, split)) ? dechunk(text.slice(split + 4)) : text.slice(split + 4);
      let code: number | undefined;
      try {
        code = (JSON.parse(json) as { error?: { code?: number } }).error?.code;
      } catch {
        code = undefined;
      }
      resolve({ status, code });
    });
    socket.end(Buffer.concat([head, paramHeaders, Buffer.from('\r\n', 'latin1'), payload]));
  });
}

function dechunk(s: string): string {
  let out = '';
  for (let i = 0; ; ) {
    const eol = s.indexOf('\r\n', i);
    const size = parseInt(s.slice(i, eol), 16);
    if (!(size > 0)) return out;
    out += s.slice(eol + 2, eol + 2 + size);
    i = eol + 2 + size + 2;
  }
}

describe('Mcp-Param-* with raw non-ASCII bytes (V2, V6: MUST reject)', () => {
  const rows: { what: string; header: Buffer; name: string; ok: boolean }[] = [
    { what: 'plain ASCII', header: Buffer.from('Mcp-Param-Name: plain value\r\n', 'latin1'), name: 'plain value', ok: true },
    { what: 'raw Latin-1 byte 0xE9 for "é"', header: Buffer.concat([Buffer.from('Mcp-Param-Name: caf', 'latin1'), Buffer.from([0xe9]), Buffer.from('\r\n')]), name: 'café', ok: false },
    { what: 'raw UTF-8 bytes C3 A9 (read as Latin-1 "Ã©")', header: Buffer.concat([Buffer.from('Mcp-Param-Name: caf', 'latin1'), Buffer.from([0xc3, 0xa9]), Buffer.from('\r\n')]), name: 'caf\u00c3\u00a9', ok: false },
    { what: 'raw UTF-8 bytes for "é", body "é"', header: Buffer.concat([Buffer.from('Mcp-Param-Name: caf', 'latin1'), Buffer.from('é', 'utf8'), Buffer.from('\r\n')]), name: 'café', ok: false },
    { what: 'the same value as a base64 sentinel', header: Buffer.from(`Mcp-Param-Name: =?base64?${Buffer.from('café').toString('base64')}?=\r\n`, 'latin1'), name: 'café', ok: true },
  ];
  for (const row of rows) {
    it(`${row.ok ? 'accepts' : 'rejects'} ${row.what}`, async () => {
      const before = calls;
      const r = await rawPost(row.header, body({ name: row.name }));
      if (row.ok) {
        expect(r).toEqual({ status: 200, code: undefined });
        expect(calls).toBe(before + 1);
      } else {
        expect(r).toEqual({ status: 400, code: -32020 });
        expect(calls).toBe(before);
      }
    });
  }
});

describe('integer Mcp-Param-* (H12) compared as the SDK server compares them', () => {
  // Header text → does it match the body value 42 (or -7 for the negative rows)?
  const rows: { header: string; value: number; ok: boolean }[] = [
    { header: '42', value: 42, ok: true },
    { header: '42.0', value: 42, ok: true },
    { header: '-7', value: -7, ok: true },
    { header: '042', value: 42, ok: true },
    { header: '0x2A', value: 42, ok: false },
    { header: '0b101010', value: 42, ok: false },
    { header: '0o52', value: 42, ok: false },
    { header: '4.2e1', value: 42, ok: false },
    { header: '+42', value: 42, ok: false },
    { header: '42.', value: 42, ok: false },
    { header: '.42e2', value: 42, ok: false },
    { header: '4_2', value: 42, ok: false },
    { header: '43', value: 42, ok: false },
    { header: 'Infinity', value: 42, ok: false },
    { header: '=?base64?MHgyQQ==?=', value: 42, ok: false }, // "0x2A" in a sentinel
    { header: '=?base64?NDI=?=', value: 42, ok: true }, // "42" in a sentinel
  ];

  // The SDK's own server with the same tool, through its fetch face.
  const sdk = createMcpHandler(() => {
    const s = new McpServer({ name: 'headers-sdk', version: '1.0.0' });
    s.registerTool('pick', { inputSchema: fromJsonSchema(INPUT as never) }, () => ({ content: [{ type: 'text', text: 'ran' }] }));
    return s;
  }, { legacy: 'reject' });
  const headersFor = (n: string) => ({
    'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'pick', 'mcp-param-n': n,
  });

  for (const row of rows) {
    it(`${row.ok ? 'matches' : 'rejects'} header ${JSON.stringify(row.header)} for body ${row.value}, like the SDK`, async () => {
      const before = calls;
      const ours = await rawPost(Buffer.from(`Mcp-Param-N: ${row.header}\r\n`, 'latin1'), body({ n: row.value }));
      const theirs = await sdk.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: headersFor(row.header), body: body({ n: row.value }) }));
      const theirCode = ((await theirs.json()) as { error?: { code?: number } }).error?.code;
      expect({ status: ours.status, code: ours.code }).toEqual(row.ok ? { status: 200, code: undefined } : { status: 400, code: -32020 });
      expect({ status: theirs.status, code: theirCode }).toEqual({ status: ours.status, code: ours.code });
      expect(calls).toBe(before + (row.ok ? 1 : 0));
    });
  }
});
