// MCP Apps in a real browser: Debian's chromium (headless, driven by playwright-core) loads the generated
// dashboard server's view the way a host does — its HTML from resources/read, in a sandboxed iframe of a
// host page on 127.0.0.1, with the Content-Security-Policy and `allow` its `_meta.ui` asks for — and the
// host side of the postMessage protocol is ext-apps' own AppBridge (run in Node, its messages relayed
// to and from the iframe), which sends the tool input and result to the view.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { AppBridge, buildAllowAttribute, getToolUiResourceUri, type McpUiResourceMeta } from '@modelcontextprotocol/ext-apps/app-bridge';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startHttp, type HttpProcess } from '../support/servers.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(ROOT, '.tmp/artifacts');

/** The host's CSP for a view: nothing but inline code, plus the origins `_meta.ui.csp` lists. */
function viewCsp(meta: McpUiResourceMeta): string {
  const list = (domains: string[] | undefined, fallback: string) => (domains && domains.length > 0 ? domains.join(' ') : fallback);
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${list(meta.csp?.resourceDomains, '')}`.trim(),
    `style-src 'unsafe-inline' ${list(meta.csp?.resourceDomains, '')}`.trim(),
    `img-src data: ${list(meta.csp?.resourceDomains, '')}`.trim(),
    `connect-src ${list(meta.csp?.connectDomains, "'none'")}`,
    `frame-src ${list(meta.csp?.frameDomains, "'none'")}`,
    "base-uri 'none'",
  ].join('; ');
}

/** The host page: relays the iframe's messages to Node (toHost) and Node's to the iframe (toView). */
function hostPage(allow: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>test host</title>
<style>body{font:13px system-ui;margin:8px;background:#eef1f5} iframe{border:1px solid #9aa5b4;background:#fff;width:560px;height:260px}</style>
<script>
  window.addEventListener('message', (e) => { const f = document.getElementById('view'); if (f && e.source === f.contentWindow) window.toHost(e.data); });
  window.toView = (m) => document.getElementById('view').contentWindow.postMessage(m, '*');
</script></head>
<body><p>test host on 127.0.0.1</p><iframe id="view" sandbox="allow-scripts" allow="${allow}" src="/view"></iframe></body></html>`;
}

/** The AppBridge side of the relay: a Transport whose wire is the page's postMessage. */
class PageTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  constructor(private readonly page: Page) {}
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    await this.page.evaluate((m) => (globalThis as unknown as { toView(m: unknown): void }).toView(m), message);
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
}

let server: HttpProcess;
let browser: Browser | undefined;
let host: Server | undefined;

beforeAll(async () => {
  // Run alone (not through npm run test:interop, which installs it first): say what is missing, not Playwright's raw error.
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: sudo apt-get install -y chromium (npm run test:interop installs it when run as root)`);
  server = await startHttp('dashboard');
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, chromiumSandbox: false });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => (host ? host.close(() => r()) : r()));
  await server?.stop();
});

describe('MCP Apps view in chromium', () => {
  it('renders the tool result the host sends over the ext-apps postMessage protocol', async () => {
    const client = new Client({ name: 'test-host', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      // What a host does: find the tool's view, read it, call the tool.
      const { tools } = await client.listTools();
      const uri = getToolUiResourceUri(tools.find((t) => t.name === 'show_forecast')!)!;
      const view = (await client.readResource({ uri })).contents[0] as { text: string; mimeType: string; _meta?: { ui?: McpUiResourceMeta } };
      const meta = view._meta?.ui ?? {};
      const args = { city: 'Lima', days: 3 };
      const result = await client.callTool({ name: 'show_forecast', arguments: args });
      const forecast = result.structuredContent as { city: string; days: { date: string; high: number; low: number; conditions: string }[] };

      host = createServer((req, res) => {
        if (req.url === '/view') {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': viewCsp(meta) });
          return void res.end(view.text);
        }
        res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
        res.end(req.url === '/' ? hostPage(buildAllowAttribute(meta.permissions)) : 'not found');
      });
      await new Promise<void>((r) => host!.listen(0, '127.0.0.1', () => r()));
      const hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;

      const page = await browser!.newPage({ viewport: { width: 600, height: 320 } });
      const transport = new PageTransport(page);
      await page.exposeFunction('toHost', (m: JSONRPCMessage) => transport.onmessage?.(m));
      const bridge = new AppBridge(client, { name: 'mcpgen-test-host', version: '1.0.0' }, { serverTools: {}, serverResources: {} });
      const initialized = new Promise<void>((resolve) => {
        bridge.oninitialized = () => {
          resolve();
          void bridge.sendToolInput({ arguments: args }).then(() => bridge.sendToolResult(result as never));
        };
      });
      await bridge.connect(transport);
      await page.goto(hostUrl);
      await initialized;

      const frame = page.frameLocator('#view');
      await frame.locator('#forecast').waitFor({ state: 'visible', timeout: 15_000 });
      expect(await frame.locator('#title').textContent()).toBe('Forecast for Lima');
      const rows = await frame.locator('#forecast tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
      expect(rows).toEqual(forecast.days.map((d) => [d.date, d.conditions, String(d.high), String(d.low)]));
      expect(await frame.locator('#status').textContent()).toBe('3 days');
      expect(await frame.locator('html').getAttribute('data-host')).toBe('mcpgen-test-host');
      // The iframe really is sandboxed (opaque origin) and under the CSP built from _meta.ui.
      const inner = page.frames().find((f) => f !== page.mainFrame())!;
      expect(await inner.evaluate(() => (globalThis as unknown as { origin: string }).origin)).toBe('null');
      const blocked = await inner.evaluate(
        (url) =>
          new Promise<string>((resolve) => {
            // Runs in the page (no DOM types in this project): the view's document and its CSP report event.
            const doc = (globalThis as unknown as { document: { addEventListener(type: string, f: (e: { effectiveDirective: string }) => void, o: object): void } }).document;
            doc.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective), { once: true });
            fetch(url).catch(() => undefined);
            setTimeout(() => resolve('no violation'), 5_000);
          }),
        hostUrl,
      );
      expect(blocked).toBe('connect-src');

      mkdirSync(ARTIFACTS, { recursive: true });
      const png = join(ARTIFACTS, 'app.png');
      await page.screenshot({ path: png });
      expect(statSync(png).size).toBeGreaterThan(1000);
      await bridge.close();
      await page.close();
    } finally {
      await client.close();
    }
  }, 60_000);
});
