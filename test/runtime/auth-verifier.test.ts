// The pluggable TokenVerifier (here: an API-key check) through the fetch face, no sockets: the same
// typed principal reaches ctx.auth, scope checks and challenges do not depend on JWTs, and a stdio
// (or in-memory) request carries no principal.
import { describe, expect, it } from 'vitest';
import type { definition as SecureDefinition } from '../../generated/secure-notes/definition.js';
import type { SecureNotesHandlers } from '../../generated/secure-notes/server.js';
import { createMcpgenServer, InvalidTokenError, type AuthPrincipal, type TokenVerifier } from '../../packages/runtime/src/server/index.js';
import { importCompiled } from '../support/servers.js';
import { mcpRequest } from '../support/mcp-request.js';

const { definition } = await importCompiled<{ definition: typeof SecureDefinition }>('secure-notes', 'definition.js');
const { handlers } = await importCompiled<{ handlers: SecureNotesHandlers }>('secure-notes', 'handlers.js');
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

const KEYS: Record<string, AuthPrincipal> = {
  'key-reader': { subject: 'reader', clientId: 'cli', scopes: ['notes.read'], claims: { team: 'a' }, expiresAt: undefined },
  'key-writer': { subject: 'writer', clientId: 'cli', scopes: ['notes.read', 'notes.write'], claims: {}, expiresAt: undefined },
  'key-old': { subject: 'old', clientId: 'cli', scopes: ['notes.read'], claims: {}, expiresAt: 1_000_000 },
};

function apiKeys(seen: string[]): TokenVerifier {
  return {
    async verify(token, { resource }) {
      seen.push(resource);
      if (token === 'explode') throw new Error('key store offline at db.internal:5432');
      const principal = KEYS[token];
      if (principal === undefined) throw new InvalidTokenError('Unknown API key');
      return principal;
    },
  };
}

function call(handler: { fetch: (r: Request) => Promise<Response> }, key: string | undefined, method: string, params: Record<string, unknown>, url = 'http://127.0.0.1/mcp') {
  return handler.fetch(mcpRequest(method, { ...params, _meta: META }, { url, headers: key !== undefined ? { authorization: `Bearer ${key}` } : {} }));
}

describe('a custom verifier (API keys)', () => {
  it('gives handlers the same typed principal, and the resource it checked against', async () => {
    const seen: string[] = [];
    const handler = createMcpgenServer(definition, handlers, { auth: { verifier: apiKeys(seen) } }).http();
    const r = await call(handler, 'key-reader', 'tools/call', { name: 'whoami', arguments: {} }, 'http://127.0.0.1/custom/path');
    expect(r.status).toBe(200);
    expect(((await r.json()) as { result: { structuredContent: unknown } }).result.structuredContent).toEqual({ subject: 'reader', clientId: 'cli', scopes: ['notes.read'] });
    expect(seen).toEqual(['http://127.0.0.1/custom/path']); // fetch face: the endpoint is the request's own path
  });

  it('refuses unknown and expired keys with 401, lacking scopes with 403, and a failing key store with 503 without its details', async () => {
    const handler = createMcpgenServer(definition, handlers, { auth: { verifier: apiKeys([]), resource: 'https://notes.example.com/mcp' } }).http();
    const unknown = await call(handler, 'nope', 'tools/call', { name: 'whoami', arguments: {} });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer error="invalid_token", error_description="Unknown API key", scope="notes.read", resource_metadata="https://notes.example.com/.well-known/oauth-protected-resource/mcp"');
    expect((await call(handler, 'key-old', 'tools/call', { name: 'whoami', arguments: {} })).status).toBe(401);
    const lacking = await call(handler, 'key-reader', 'prompts/get', { name: 'weekly_review' });
    expect(lacking.status).toBe(403);
    expect(lacking.headers.get('www-authenticate')).toContain('scope="notes.read notes.write"');
    expect((await call(handler, 'key-writer', 'prompts/get', { name: 'weekly_review' })).status).toBe(200);
    const down = await call(handler, 'explode', 'tools/call', { name: 'whoami', arguments: {} });
    expect(down.status).toBe(503);
    expect(await down.text()).not.toContain('db.internal');
  });

  it('publishes the configured resource in the metadata, and 404s metadata for another path', async () => {
    const handler = createMcpgenServer(definition, handlers, { auth: { verifier: apiKeys([]), resource: 'https://notes.example.com/mcp', authorizationServers: ['https://id.example.com'] } }).http({ allowedHosts: '*' });
    const doc = await handler.fetch(new Request('http://127.0.0.1/.well-known/oauth-protected-resource/mcp'));
    expect(await doc.json()).toMatchObject({ resource: 'https://notes.example.com/mcp', authorization_servers: ['https://id.example.com'] });
    expect((await handler.fetch(new Request('http://127.0.0.1/.well-known/oauth-protected-resource/other'))).status).toBe(404);
    expect((await handler.fetch(new Request('http://127.0.0.1/.well-known/oauth-protected-resource/mcp', { method: 'POST' }))).status).toBe(405);
  });

  it('a server without auth: no metadata, no gate', async () => {
    const { auth: _auth, ...open } = definition;
    const handler = createMcpgenServer(open, handlers).http();
    expect((await handler.fetch(new Request('http://127.0.0.1/.well-known/oauth-protected-resource/mcp'))).status).toBe(404);
    const r = await call(handler, undefined, 'tools/call', { name: 'purge_notes', arguments: {} });
    expect(r.status).toBe(200);
  });
});
