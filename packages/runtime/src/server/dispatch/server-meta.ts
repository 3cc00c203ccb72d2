// The spec's server `_meta` (MCP's Implementation has no `_meta` of its own: a server says things about
// itself in the `_meta` of the initialize result, 2025-11-25, and of the server/discover result, 2026-07-28).
// The SDK's Server builds both results in `_oninitialize` and `_ondiscover` and offers no option for their
// `_meta`; every path that answers them (its own handlers, the modern-only install) calls those two methods,
// so this wraps them on the instance. The 2026 encoder adds `io.modelcontextprotocol/serverInfo` beside the keys.
import type { Server } from '@modelcontextprotocol/server';

type Result = Record<string, unknown>;
interface ResultBuilders {
  _oninitialize(request: unknown): Promise<Result>;
  _ondiscover(): Result;
}

export function carryServerMeta(server: Server, meta: Readonly<Record<string, unknown>>): void {
  const builders = server as unknown as ResultBuilders;
  const initialize = builders._oninitialize.bind(server);
  const discover = builders._ondiscover.bind(server);
  builders._oninitialize = async (request) => withMeta(await initialize(request), meta);
  builders._ondiscover = () => withMeta(discover(), meta);
}

function withMeta(result: Result, meta: Readonly<Record<string, unknown>>): Result {
  return { ...result, _meta: { ...meta, ...(result._meta as Result | undefined) } };
}
