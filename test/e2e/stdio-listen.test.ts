// Issue 25 item 13: over stdio, `subscriptions/listen` used to acknowledge toolsListChanged and
// resourceSubscriptions while ctx.notify reached nobody. The official SDK client, pinned to 2026-07-28,
// listens to the generated inventory server's main.js over stdio and must hear what its handlers publish,
// filtered as it asked, and nothing after it closes the subscription.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledMain } from '../support/servers.js';

let client: Client;
const heard: string[] = [];

beforeAll(async () => {
  client = new Client({ name: 'stdio-listener', version: '1' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
  client.setNotificationHandler('notifications/tools/list_changed', () => void heard.push('tools/list_changed'));
  client.setNotificationHandler('notifications/resources/updated', (n) => void heard.push(`updated ${n.params.uri}`));
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [compiledMain('inventory')], stderr: 'ignore' }));
}, 30_000);

afterAll(async () => {
  await client?.close();
});

/** Wait until `heard` holds `n` entries (or 3 s), then a little longer so that an extra one would show. */
async function settle(n: number): Promise<string[]> {
  const until = Date.now() + 3000;
  while (heard.length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 200));
  return heard.splice(0);
}

describe('subscriptions/listen over stdio', () => {
  it('delivers ctx.notify events the subscription asked for, and only those', async () => {
    const sub = await client.listen({ toolsListChanged: true, resourceSubscriptions: ['inventory://items/A'] });
    expect(sub.honoredFilter).toMatchObject({ toolsListChanged: true, resourceSubscriptions: ['inventory://items/A'] });

    await client.callTool({ name: 'restock', arguments: { sku: 'A', units: 2 } });
    expect(await settle(1)).toEqual(['updated inventory://items/A']);
    // Not in the filter: not delivered.
    await client.callTool({ name: 'restock', arguments: { sku: 'B', units: 1 } });
    expect(await settle(1)).toEqual([]);
    // discontinue asks for confirmation (MRTR, answered by the handler above), then publishes toolsChanged.
    const r = await client.callTool({ name: 'discontinue', arguments: { sku: 'A' } });
    expect(r.isError).toBeFalsy();
    expect(await settle(1)).toEqual(['tools/list_changed']);

    await sub.close();
    await client.callTool({ name: 'restock', arguments: { sku: 'A', units: 1 } });
    expect(await settle(1)).toEqual([]);
  }, 30_000);
});
