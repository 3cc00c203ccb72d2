import { EnvironmentError } from '../../errors.js';
import { reason, type RawClient } from './connect.js';

type Json = Record<string, unknown>;

/** Everything a server publishes about itself, exactly as sent (every page of every list). */
export interface ServerDump {
  readonly protocolVersion: string | undefined;
  readonly serverInfo: Json;
  readonly instructions: string | undefined;
  /** The initialize/discover result's `_meta` without `io.modelcontextprotocol/serverInfo` (serverInfo again); absent when nothing else is left. */
  readonly meta?: Json;
  readonly capabilities: Json;
  readonly tools: readonly Json[];
  readonly resources: readonly Json[];
  readonly resourceTemplates: readonly Json[];
  readonly prompts: readonly Json[];
}

const LISTS = [
  { key: 'tools', method: 'tools/list', capability: 'tools' },
  { key: 'resources', method: 'resources/list', capability: 'resources' },
  { key: 'resourceTemplates', method: 'resources/templates/list', capability: 'resources' },
  { key: 'prompts', method: 'prompts/list', capability: 'prompts' },
] as const;

// The 2026 era's copy of serverInfo on every result: the dump has serverInfo already.
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

// A server that hands back cursors forever would keep the import running; no real list is this long.
const MAX_PAGES = 10_000;

export async function readServer(client: RawClient): Promise<ServerDump> {
  const capabilities = client.capabilities() ?? {};
  const lists: Record<string, Json[]> = {};
  for (const list of LISTS) {
    lists[list.key] = capabilities[list.capability] === undefined ? [] : await readAllPages(client, list.method, list.key);
  }
  return {
    protocolVersion: client.protocolVersion(),
    serverInfo: client.serverInfo() ?? {},
    instructions: client.instructions(),
    ...serverMeta(client.resultMeta()),
    capabilities,
    tools: lists.tools!,
    resources: lists.resources!,
    resourceTemplates: lists.resourceTemplates!,
    prompts: lists.prompts!,
  };
}

function serverMeta(sent: Json | undefined): { meta?: Json } {
  const { [SERVER_INFO]: _serverInfo, ...rest } = sent ?? {};
  return Object.keys(rest).length > 0 ? { meta: rest } : {};
}

/** Follows nextCursor until the server stops sending one; a cursor seen before is a server bug, not a loop to run. */
export async function readAllPages(client: RawClient, method: string, key: string): Promise<Json[]> {
  const items: Json[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    let result: Json;
    try {
      result = await client.request(method, cursor === undefined ? {} : { cursor });
    } catch (e) {
      throw new EnvironmentError(`${method}${cursor === undefined ? '' : ` (cursor ${JSON.stringify(cursor)})`} failed: ${reason(e)}`);
    }
    const got = result[key];
    if (!Array.isArray(got)) throw new EnvironmentError(`${method} answered without a \`${key}\` array`);
    items.push(...(got as Json[]));
    const next = result.nextCursor;
    if (typeof next !== 'string') return items;
    if (seen.has(next)) throw new EnvironmentError(`${method} sent the cursor ${JSON.stringify(next)} twice; the server's pagination loops`);
    seen.add(next);
    cursor = next;
  }
  throw new EnvironmentError(`${method} still sent a nextCursor after ${MAX_PAGES} pages`);
}
