// Issue 25 item 8: browser clients from another origin, in Debian's headless chromium. A page served from
// http://app.test:<port> (a listed CORS origin; chromium maps the name to 127.0.0.1) and one from
// http://evil.test:<port> (not listed) call generated servers on 127.0.0.1 with fetch(): what the browser
// lets the page see is the table. The secure-notes server checks bearer tokens of a real oidc-provider;
// the weather server has no auth: and gets its origins from the generated main's --cors-origins flag.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SecureNotesHandlers } from '../../generated/secure-notes/server.js';
import type { McpgenServer, RunningServer, ServerOptions } from '../../packages/runtime/src/server/index.js';
import { startAuthorizationServer, type TestAuthorizationServer } from '../support/oidc-as.js';
import { importCompiled, startHttp, type HttpProcess } from '../support/servers.js';

const CHROMIUM = '/usr/bin/chromium';

let as: TestAuthorizationServer;
let notes: RunningServer;
let weather: HttpProcess;
let pages: Server;
let browser: Browser;
let app: string;
let evil: string;

beforeAll(async () => {
  pages = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'));
  await new Promise<void>((r) => pages.listen(0, '127.0.0.1', r));
  const port = (pages.address() as AddressInfo).port;
  app = `http://app.test:${port}`;
  evil = `http://evil.test:${port}`;
  as = await startAuthorizationServer();
  const { createSecureNotesServer } = await importCompiled<{ createSecureNotesServer: (h: SecureNotesHandlers, o?: ServerOptions) => McpgenServer }>('secure-notes', 'server.js');
  const { handlers } = await importCompiled<{ handlers: SecureNotesHandlers }>('secure-notes', 'handlers.js');
  notes = await createSecureNotesServer(handlers, { auth: { authorizationServers: [as.issuer], log: () => {} } }).listen({ port: 0, corsOrigins: [app] });
  weather = await startHttp('weather', ['--cors-origins', app]);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, chromiumSandbox: false, args: ['--host-resolver-rules=MAP app.test 127.0.0.1, MAP evil.test 127.0.0.1'] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await notes?.close(1000);
  await weather?.stop();
  await as?.close();
  await new Promise<void>((r) => (pages ? pages.close(() => r()) : r()));
});

interface Seen {
  readonly status?: number;
  readonly wwwAuthenticate?: string | null;
  readonly blocked?: string;
}

/** fetch() in the page; a CORS refusal is the TypeError the browser throws (the page sees nothing else). */
async function browserCall(page: Page, url: string, method: string, headers: Record<string, string>): Promise<Seen> {
  return page.evaluate(
    async ({ url, method, headers }) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...(method === 'tools/call' ? { name: 'whoami', arguments: {} } : {}), _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'browser', version: '1' } } } });
      try {
        const r = await fetch(url, { method: 'POST', headers, body });
        return { status: r.status, wwwAuthenticate: r.headers.get('www-authenticate') };
      } catch (e) {
        return { blocked: String(e) };
      }
    },
    { url, method, headers },
  );
}

const mcpHeaders = (method: string, extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': method,
  ...(method === 'tools/call' ? { 'mcp-name': 'whoami' } : {}),
  ...extra,
});

describe('CORS preflights from another origin, in chromium', () => {
  it('serves the listed origin (preflight before the bearer gate, WWW-Authenticate exposed) and refuses others', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await as.sign({ iss: as.issuer, aud: notes.url, sub: 'u', client_id: 'm2m', scope: 'notes.read', iat: now, exp: now + 300, jti: 'cors' });
    const bearer = { authorization: `Bearer ${token}` };
    const table: { row: string; origin: string; url: string; method: string; headers: Record<string, string>; expect: (s: Seen) => void }[] = [
      { row: 'listed origin, valid token', origin: app, url: notes.url, method: 'tools/call', headers: mcpHeaders('tools/call', bearer), expect: (s) => expect(s.status).toBe(200) },
      { row: 'listed origin, no token: 401 and the challenge is readable', origin: app, url: notes.url, method: 'tools/call', headers: mcpHeaders('tools/call'), expect: (s) => (expect(s.status).toBe(401), expect(s.wwwAuthenticate).toContain('resource_metadata=')) },
      { row: 'listed origin, bad token: 401 invalid_token readable', origin: app, url: notes.url, method: 'tools/call', headers: mcpHeaders('tools/call', { authorization: 'Bearer nope' }), expect: (s) => (expect(s.status).toBe(401), expect(s.wwwAuthenticate).toContain('invalid_token')) },
      { row: 'listed origin, Mcp-Param-* header', origin: app, url: notes.url, method: 'tools/call', headers: mcpHeaders('tools/call', { ...bearer, 'mcp-param-x': 'y' }), expect: (s) => expect(s.blocked).toBeUndefined() },
      { row: 'listed origin, a header not served (X-Custom)', origin: app, url: notes.url, method: 'tools/call', headers: mcpHeaders('tools/call', { ...bearer, 'x-custom': '1' }), expect: (s) => expect(s.blocked).toContain('TypeError') },
      { row: 'other origin, valid token', origin: evil, url: notes.url, method: 'tools/call', headers: mcpHeaders('tools/call', bearer), expect: (s) => expect(s.blocked).toContain('TypeError') },
      { row: 'other origin, no token', origin: evil, url: notes.url, method: 'tools/call', headers: mcpHeaders('tools/call'), expect: (s) => expect(s.blocked).toContain('TypeError') },
      { row: 'listed origin, no auth: server (was 405)', origin: app, url: weather.url, method: 'tools/list', headers: mcpHeaders('tools/list'), expect: (s) => expect(s.status).toBe(200) },
      { row: 'other origin, no auth: server', origin: evil, url: weather.url, method: 'tools/list', headers: mcpHeaders('tools/list'), expect: (s) => expect(s.blocked).toContain('TypeError') },
    ];
    const byOrigin = new Map<string, Page>();
    for (const origin of [app, evil]) {
      const page = await browser.newPage();
      await page.goto(`${origin}/`);
      byOrigin.set(origin, page);
    }
    const seen: string[] = [];
    for (const row of table) {
      const s = await browserCall(byOrigin.get(row.origin)!, row.url, row.method, row.headers);
      seen.push(`${row.row.padEnd(62)} ${s.blocked !== undefined ? 'blocked by the browser' : `${s.status}${s.wwwAuthenticate ? ` (WWW-Authenticate: ${s.wwwAuthenticate.slice(0, 40)}…)` : ''}`}`);
      row.expect(s);
    }
    console.log(seen.join('\n'));
  }, 60_000);

  it('answers the raw preflight of a listed origin with 204 and the allowed headers, without a token', async () => {
    const preflight = (origin: string, url: string) =>
      fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version, mcp-method, mcp-name' } });
    const ok = await preflight(app, notes.url);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(app);
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST');
    expect(ok.headers.get('access-control-allow-headers')).toContain('authorization');
    const other = await preflight(evil, notes.url);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.status).toBe(403);
    const refused = await fetch(notes.url, { method: 'POST', headers: { origin: app, ...mcpHeaders('tools/call') }, body: '{}' });
    expect(refused.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
  });
});
