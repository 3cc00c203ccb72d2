// The node:http face remembers the last request URL it made (transport/request-url.ts): a keep-alive client
// sends the same Host and target every time. What would show a wrong reuse: behind `auth:` without a
// configured resource, the 401 challenge names the resource derived from the request's own Host, so
// alternating Hosts must each get their own; a bad Host after a good one is still 400.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { definition as SecureDefinition } from '../../generated/secure-notes/definition.js';
import type { SecureNotesHandlers } from '../../generated/secure-notes/server.js';
import { createMcpgenServer, InvalidTokenError, type RunningServer } from '../../packages/runtime/src/server/index.js';
import { importCompiled } from '../support/servers.js';

const { definition } = await importCompiled<{ definition: typeof SecureDefinition }>('secure-notes', 'definition.js');
const { handlers } = await importCompiled<{ handlers: SecureNotesHandlers }>('secure-notes', 'handlers.js');

let server: RunningServer;
beforeAll(async () => {
  const verifier = { verify: async () => Promise.reject(new InvalidTokenError('no')) };
  server = await createMcpgenServer(definition, handlers, { auth: { verifier } }).listen({ port: 0, allowedHosts: '*' });
});
afterAll(() => server?.close(1000));

/** A tools/call with a chosen Host and no token: the status and the challenge. */
function callWithHost(host: string): Promise<{ status: number; challenge: string | undefined }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });
  const headers = { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'whoami', 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: '/mcp', method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, challenge: res.headers['www-authenticate'] }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the request URL the node:http face remembers', () => {
  it('is the request’s own: alternating Hosts each get a challenge naming their host, a bad Host is 400', async () => {
    for (const host of ['a.example:8080', 'a.example:8080', 'b.example', 'a.example:8080']) {
      const { status, challenge } = await callWithHost(host);
      expect(status).toBe(401);
      expect(challenge).toContain(`resource_metadata="http://${host}/.well-known/oauth-protected-resource/mcp"`);
    }
    expect((await callWithHost('a.example:8080/../x')).status).toBe(400);
    expect((await callWithHost('b.example')).challenge).toContain('http://b.example/');
  });
});
