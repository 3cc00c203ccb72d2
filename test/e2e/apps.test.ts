// MCP Apps (io.modelcontextprotocol/ui) end to end: the generated dashboard server (specs/dashboard.yaml)
// started as a process on 127.0.0.1, called over Streamable HTTP by the official client and by the
// generated client; what it sends is checked against ext-apps' own schemas and host helpers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  getToolUiResourceUri,
  isToolVisibilityAppOnly,
  McpUiResourceMetaSchema,
  McpUiToolMetaSchema,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import { SkillsExtension, memorySkillFiles } from '@modelcontextprotocol/server/ext/skills';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardClient as DashboardClientType } from '../../generated/dashboard/client.js';
import type { createDashboardServer as CreateDashboardServer, DashboardHandlers } from '../../generated/dashboard/server.js';
import { UI_EXTENSION_ID, UI_LEGACY_RESOURCE_URI_KEY, UI_MIME_TYPE } from '../../packages/runtime/src/shared/index.js';
import { importCompiled, ROOT, startHttp, type HttpProcess } from '../support/servers.js';
import { tappedFetch, WireLog } from '../support/wire.js';

const VIEW = 'ui://dashboard/forecast';
const HTML = readFileSync(join(ROOT, 'specs/dashboard/forecast.html'), 'utf8');
const EXPECTED_UI_META = { csp: { connectDomains: ['https://api.open-meteo.com'] }, permissions: { clipboardWrite: {} }, prefersBorder: true };

let server: HttpProcess;

beforeAll(async () => {
  server = await startHttp('dashboard');
});

afterAll(async () => {
  await server?.stop();
});

describe('MCP Apps: generated server over HTTP', () => {
  it('uses the wire constants ext-apps defines', () => {
    expect(UI_MIME_TYPE).toBe(RESOURCE_MIME_TYPE);
    expect(UI_LEGACY_RESOURCE_URI_KEY).toBe(RESOURCE_URI_META_KEY);
  });

  it('announces the extension in server/discover, points tools at the view and serves it with _meta.ui (official client)', async () => {
    const log = new WireLog();
    const pending: Promise<void>[] = [];
    const client = new Client({ name: 'official', version: '2.4.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: tappedFetch(log, pending) }));
    try {
      expect(client.getServerCapabilities()?.extensions?.[UI_EXTENSION_ID]).toEqual({});
      const { tools } = await client.listTools();
      const show = tools.find((t) => t.name === 'show_forecast')!;
      const refresh = tools.find((t) => t.name === 'refresh_forecast')!;
      // A host finds the view the way ext-apps' AppBridge helpers do, in both the new and the legacy key.
      expect(getToolUiResourceUri(show)).toBe(VIEW);
      expect(show._meta).toEqual({ ui: { resourceUri: VIEW }, [RESOURCE_URI_META_KEY]: VIEW });
      expect(McpUiToolMetaSchema.parse(refresh._meta!.ui)).toEqual({ resourceUri: VIEW, visibility: ['app'] });
      expect(isToolVisibilityAppOnly(refresh)).toBe(true);
      expect(isToolVisibilityAppOnly(show)).toBe(false);

      const { resources } = await client.listResources();
      expect(resources).toContainEqual({ uri: VIEW, name: 'forecast_view', title: 'Forecast table', mimeType: RESOURCE_MIME_TYPE, _meta: { ui: EXPECTED_UI_META } });
      const read = await client.readResource({ uri: VIEW });
      expect(read.contents).toHaveLength(1);
      const item = read.contents[0]!;
      expect(item).toMatchObject({ uri: VIEW, mimeType: RESOURCE_MIME_TYPE });
      expect((item as { text: string }).text).toBe(HTML);
      expect(McpUiResourceMetaSchema.parse(item._meta!.ui)).toEqual(EXPECTED_UI_META);

      const result = await client.callTool({ name: 'show_forecast', arguments: { city: 'Lima', days: 2 } });
      expect((result.structuredContent as { days: unknown[] }).days).toHaveLength(2);
      await Promise.all(pending);
      // The raw server/discover answer, and every message against the 2026-07-28 schema.
      const discover = log.entries.find((e) => e.direction === 'server→client' && (e.message.result as { capabilities?: unknown } | undefined)?.capabilities !== undefined);
      expect((discover!.message.result as { capabilities: { extensions?: Record<string, unknown> } }).capabilities.extensions).toEqual({ [UI_EXTENSION_ID]: {} });
      expect(log.problems()).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('unknown ui:// URIs are resource-not-found, not a view', async () => {
    const client = new Client({ name: 'official', version: '2.4.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      await expect(client.readResource({ uri: 'ui://dashboard/other' })).rejects.toThrow(/not found/i);
    } finally {
      await client.close();
    }
  });

  it('the generated client exposes each tool\'s view URI and reads the view', async () => {
    const { DashboardClient } = await importCompiled<{ DashboardClient: typeof DashboardClientType }>('dashboard', 'client.js');
    expect(DashboardClient.toolUi).toEqual({ show_forecast: VIEW, refresh_forecast: VIEW });
    const client = await DashboardClient.connect({ url: server.url });
    try {
      const view = await client.readToolUi('show_forecast');
      expect(view).toEqual({ uri: VIEW, mimeType: RESOURCE_MIME_TYPE, html: HTML, meta: EXPECTED_UI_META });
      const forecast = await client.showForecast({ city: 'Lima' });
      expect(forecast.structuredContent?.city).toBe('Lima');
    } finally {
      await client.close();
    }
  });

  it('still lists the view beside skill files when the server also serves skills', async () => {
    const { createDashboardServer } = await importCompiled<{ createDashboardServer: typeof CreateDashboardServer }>('dashboard', 'server.js');
    const { handlers } = await importCompiled<{ handlers: DashboardHandlers }>('dashboard', 'handlers.js');
    const skills = await SkillsExtension.load(memorySkillFiles({ 'notes/SKILL.md': '---\nname: notes\ndescription: Taking notes.\n---\n' }), { strict: true });
    const running = await createDashboardServer(handlers, { skills }).listen({ port: 0 });
    const client = new Client({ name: 'official', version: '2.4.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
      const uris = (await client.listResources()).resources.map((r) => r.uri);
      expect(uris).toContain(VIEW);
      expect(uris).toContain('skill://notes/SKILL.md');
    } finally {
      await client.close();
      await running.close(500);
    }
  });
});
