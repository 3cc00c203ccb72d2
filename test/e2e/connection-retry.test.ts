// A request written to a pooled keep-alive connection that the server side closes without answering —
// what a client meets when the server closed the idle connection while the client was too busy to
// notice (seen in CI: 39 conformance clients at once on 2 cores, Node's 5 s keep-alive). A TCP proxy
// makes it deterministic; a generated server in its own process counts what reaches its handlers.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlClient as SqlClientType } from '../../generated/sql/client.js';
import type { ClientOptions } from '../../packages/runtime-client/src/index.js';
import { startDroppingProxy, type DroppingProxy } from '../support/dropping-proxy.js';
import { importCompiled, ROOT, startScript, type HttpProcess } from '../support/servers.js';

let server: HttpProcess;
let proxy: DroppingProxy;
let SqlClient: typeof SqlClientType;

beforeAll(async () => {
  server = await startScript(join(ROOT, 'test/support/counting-server.mjs'));
  proxy = await startDroppingProxy(server.url);
  ({ SqlClient } = await importCompiled<{ SqlClient: typeof SqlClientType }>('sql', 'client.js'));
});

afterAll(async () => {
  await proxy.close();
  await server.stop();
});

const connected = (options: ClientOptions) => SqlClient.connect({ url: proxy.url }, options);
const select = { region: 'us-west1', query: 'SELECT 1' } as const;
const tablesCount = async (client: SqlClientType) => Number((await client.listTables({ region: 'us-west1' })).structuredContent?.tables[0]);
const LOST = /fetch failed|other side closed|socket/i;

describe('a request whose connection is lost before any response', () => {
  it('is replayed once for a read-only tool by default, and reaches the handler once', async () => {
    const client = await connected({});
    const before = await tablesCount(client);
    const dropped = proxy.dropped;
    proxy.armDrop();
    expect(await tablesCount(client)).toBe(before + 1);
    expect(proxy.dropped).toBe(dropped + 1);
    await client.close();
  });

  it('is not replayed for a tool that is neither read-only nor idempotent: the caller sees the failure', async () => {
    const client = await connected({});
    const before = (await client.executeSql(select)).structuredContent!.rowCount;
    proxy.armDrop();
    await expect(client.executeSql(select)).rejects.toThrow(LOST);
    // The lost attempt never reached the handler: the next call is the next one counted.
    expect((await client.executeSql(select)).structuredContent!.rowCount).toBe(before + 1);
    await client.close();
  });

  it("is replayed for any tool with connectionRetry: 'always', and for none with 'never'", async () => {
    const always = await connected({ connectionRetry: 'always' });
    const before = (await always.executeSql(select)).structuredContent!.rowCount;
    proxy.armDrop();
    expect((await always.executeSql(select)).structuredContent!.rowCount).toBe(before + 1);
    await always.close();

    const never = await connected({ connectionRetry: 'never' });
    await tablesCount(never);
    proxy.armDrop();
    await expect(tablesCount(never)).rejects.toThrow(LOST);
    await never.close();
  });
});
