// Each example server, generated from specs/ and compiled, driven by its generated client over real
// stdio pipes and real HTTP on 127.0.0.1; every message is checked against the 2026-07-28 schema.
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import type { FilesClient } from '../../generated/files/client.js';
import type { PromptsClient } from '../../generated/prompts/client.js';
import type { SqlClient } from '../../generated/sql/client.js';
import type { WeatherClient } from '../../generated/weather/client.js';
import { compiledMain, importCompiled, startHttp, type HttpProcess } from '../support/servers.js';
import { tappedFetch, tappedTransport, WireLog } from '../support/wire.js';

type Connectable<C> = { connect(target: unknown, options?: unknown): Promise<C> };
type Transport = 'http' | 'stdio';

const running: HttpProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
});

async function connect<C extends { close(): Promise<void> }>(pkg: string, className: string, transport: Transport, log: WireLog, options: Record<string, unknown> = {}) {
  const mod = await importCompiled<Record<string, Connectable<C>>>(pkg, 'client.js');
  const Client = mod[className]!;
  const pending: Promise<void>[] = [];
  if (transport === 'http') {
    const server = await startHttp(pkg);
    running.push(server);
    const client = await Client.connect({ url: server.url, fetch: tappedFetch(log, pending) }, options);
    return { client, settle: () => Promise.all(pending) };
  }
  const inner = new StdioClientTransport({ command: process.execPath, args: [compiledMain(pkg)], stderr: 'ignore' });
  const client = await Client.connect({ transport: tappedTransport(inner, log) }, options);
  return { client, settle: async () => [] };
}

function expectValidWire(log: WireLog) {
  expect(log.problems()).toEqual([]);
  expect(log.entries.length).toBeGreaterThan(0);
}

describe.each<Transport>(['http', 'stdio'])('examples over %s', (transport) => {
  it('weather: every tool, typed results, argument validation', async () => {
    const log = new WireLog();
    const { client, settle } = await connect<WeatherClient>('weather', 'WeatherClient', transport, log);
    try {
      const forecast = await client.getForecast({ city: 'Paris', days: 2, units: 'imperial' });
      expect(forecast.isError).toBe(false);
      expect(forecast.structuredContent).toEqual({ city: 'Paris', temperature: 64, conditions: 'snow', wind: { speed: 13, direction: 'NW' } });
      expect(JSON.parse((forecast.content[0] as { text: string }).text)).toEqual(forecast.structuredContent);
      expect((await client.getAlerts({ state: 'CA' })).structuredContent?.alerts[0]?.event).toBe('Heat Advisory');
      expect((await client.add({ a: 2, b: 40 })).structuredContent).toEqual({ sum: 42 });
      const invalid = await client.getAlerts({ state: 'California' });
      expect(invalid.isError).toBe(true);
      expect((invalid.content[0] as { text: string }).text).toContain('Invalid arguments for tool get_alerts: arguments/state must match pattern');
      expect((await client.listAllTools()).map((t) => t.name)).toEqual(['get_forecast', 'get_alerts', 'add']);
    } finally {
      await client.close();
    }
    await settle();
    expectValidWire(log);
    expect(log.methods('client→server')).toContain('tools/call');
  });

  it('sql: x-mcp-header arguments and MRTR elicitation', async () => {
    const log = new WireLog();
    const asked: unknown[] = [];
    const { client, settle } = await connect<SqlClient>('sql', 'SqlClient', transport, log, {
      onElicit: (req: unknown) => {
        asked.push(req);
        return { action: 'accept', content: { confirm: true } };
      },
    });
    try {
      const read = await client.executeSql({ region: 'eu-west1', query: 'SELECT 1', options: { timeoutSeconds: 5, dryRun: false } });
      expect(read.structuredContent).toEqual({ columns: ['region', 'query'], rows: [['eu-west1', 'SELECT 1']], rowCount: 1 });
      expect(asked).toEqual([]);
      const write = await client.executeSql({ region: 'us-west1', query: 'DELETE FROM orders' });
      expect(write.structuredContent?.rowCount).toBe(1);
      expect(asked).toEqual([{ mode: 'form', message: 'This query modifies data. Run it?', requestedSchema: expect.objectContaining({ type: 'object' }) }]);
      expect((await client.listTables({ region: 'us-east1' })).structuredContent).toEqual({ tables: ['customers', 'invoices'] });
    } finally {
      await client.close();
    }
    await settle();
    expectValidWire(log);
    const results = log.entries.filter((e) => e.direction === 'server→client').map((e) => (e.message.result as { resultType?: string } | undefined)?.resultType);
    expect(results).toContain('input_required');
  });

  it('files: resources, templates, not-found, binary', async () => {
    const log = new WireLog();
    const { client, settle } = await connect<FilesClient>('files', 'FilesClient', transport, log);
    try {
      expect((await client.readReadme()).contents).toEqual([{ uri: 'file:///project/README.md', mimeType: 'text/markdown', text: '# Project\n\nAn example project.\n' }]);
      const logo = (await client.readLogo()).contents[0] as { blob: string; mimeType: string };
      expect(logo.mimeType).toBe('image/png');
      expect(Buffer.from(logo.blob, 'base64').subarray(1, 4).toString()).toBe('PNG');
      expect((await client.readSourceDir()).contents).toHaveLength(2);
      expect((await client.readProjectFile({ path: 'src/index.ts' })).contents[0]).toMatchObject({ uri: 'file:///project/src/index.ts', text: 'export const answer = 42;\n' });
      expect(JSON.parse(((await client.readGitLog({ ref: 'main' })).contents[0] as { text: string }).text)).toEqual([{ ref: 'main', commit: '0000000', message: 'initial commit' }]);
      await expect(client.readProjectFile({ path: 'src/../../etc/passwd' })).rejects.toMatchObject({ code: -32602 });
      expect((await client.searchFiles({ text: 'src/' })).structuredContent?.matches.map((m) => m.uri)).toEqual(['file:///project/src/index.ts', 'file:///project/src/util.ts']);
      const listed = await client.sdk.listResources();
      expect(listed.resources.map((r) => r.name)).toEqual(['readme', 'logo', 'source_dir']);
      expect((await client.sdk.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['file:///project/{+path}', 'git://project/{ref}/log{?limit}']);
    } finally {
      await client.close();
    }
    await settle();
    expectValidWire(log);
  });

  it('prompts: every prompt, required arguments enforced', async () => {
    const log = new WireLog();
    const { client, settle } = await connect<PromptsClient>('prompts', 'PromptsClient', transport, log);
    try {
      const review = await client.promptCodeReview({ code: 'x = 1', language: 'Python' });
      expect(review.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Review this code for bugs and style. It is Python.\n\nx = 1' } }]);
      expect(review.description).toBe('Review a change for bugs and style.');
      expect((await client.promptSummarize({ text: 'long text', max_words: '10' })).messages[0]?.content).toEqual({ type: 'text', text: 'Summarize in at most 10 words:\n\nlong text' });
      expect((await client.promptDailyStandup()).messages).toHaveLength(1);
      await expect(client.promptCodeReview({} as never)).rejects.toMatchObject({ code: -32602 });
      expect((await client.sdk.listPrompts()).prompts.map((p) => p.name)).toEqual(['code_review', 'summarize', 'daily_standup']);
    } finally {
      await client.close();
    }
    await settle();
    expectValidWire(log);
  });
});
