import { InMemoryServerEventBus } from '@modelcontextprotocol/server';
import type { ChangeNotifier } from '../core/context.js';
import { MemoryTaskStore } from '../tasks/memory-store.js';
import { createServerFactory, type HandlerTable, type ServerFactory, type ServerOptions } from '../dispatch/create-server.js';
import type { ServerDefinition } from '../core/definition.js';
import { exposedDefinition } from '../core/exposure.js';
import { createHttpHandler, type HttpHandler, type HttpOptions } from '../transport/http.js';
import { listen, type ListenOptions, type RunningServer } from '../transport/node-http.js';
import { serveStdio } from '../transport/stdio.js';
import { entryArgsOrExit, exposureWarning, httpEntryOptions, isEntryArgs, type EntryArgs } from './entry-args.js';

/** What `create<Name>Server(handlers)` returns: one definition, served over any transport. */
export interface McpgenServer {
  /** A fresh SDK `Server` per call (for custom transports or in-memory tests). */
  readonly factory: ServerFactory;
  /** Streamable HTTP as a Web-standard fetch handler (Node, workers, serverless). */
  http(options?: HttpOptions): HttpHandler;
  /** Streamable HTTP on node:http, bound to 127.0.0.1 unless told otherwise. */
  listen(options?: ListenOptions & HttpOptions): Promise<RunningServer & { readonly notify: HttpHandler['notify'] }>;
  /** stdio: newline-delimited JSON-RPC on stdin/stdout. */
  stdio(): { close(): Promise<void> };
}

export function createMcpgenServer(spec: ServerDefinition, handlers: object, options: ServerOptions & { readonly legacy?: boolean } = {}): McpgenServer {
  // The HTTP face (Mcp-Param headers, tasks) and the factory see the same exposed members.
  const definition = exposedDefinition(spec, options);
  // One bus per server: handlers publish through ctx.notify, every HTTP handler's listen streams hear it
  // (and, with a shared bus such as Redis, every other instance's streams too).
  const bus = options.bus ?? new InMemoryServerEventBus();
  const notifier: ChangeNotifier = {
    toolsChanged: () => bus.publish({ kind: 'tools_list_changed' }),
    promptsChanged: () => bus.publish({ kind: 'prompts_list_changed' }),
    resourcesChanged: () => bus.publish({ kind: 'resources_list_changed' }),
    resourceUpdated: (uri) => bus.publish({ kind: 'resource_updated', uri }),
  };
  // One task store per server, shared by the factory (tasks/*) and the HTTP face (notifications/tasks).
  const taskStore = options.taskStore ?? (definition.tools.some((t) => t.task !== undefined) ? new MemoryTaskStore() : undefined);
  const factory = createServerFactory(definition, handlers as HandlerTable, { notifier, ...options, ...(taskStore !== undefined ? { taskStore } : {}) });
  // Both eras by default, as the SDK's own entry points do: most hosts still open with 2025-11-25 initialize.
  const legacy = options.legacy ?? true;
  const http = (httpOptions: HttpOptions = {}) =>
    createHttpHandler(factory, definition, { legacy, bus, ...(options.auth !== undefined ? { auth: options.auth } : {}), ...(taskStore !== undefined ? { taskStore } : {}), ...httpOptions });
  return {
    factory,
    http,
    listen: async (opts = {}) => {
      const handler = http({ endpointPath: opts.path ?? '/mcp', ...opts });
      return { ...(await listen(handler, opts)), notify: handler.notify };
    },
    stdio: () => serveStdio(factory, { legacy }),
  };
}

/**
 * The entry point of a generated `main.ts`: `--stdio` (default) or `--http [--port N] [--host H]
 * [--allowed-hosts …] [--allowed-origins …]` (entry-args.ts; argv is parsed here when not parsed yet).
 * On SIGTERM/SIGINT an HTTP server stops accepting, drains in-flight requests, then exits.
 */
export async function runMain(server: McpgenServer, argv: readonly string[] | EntryArgs = process.argv.slice(2), listenOptions: ListenOptions & HttpOptions = {}): Promise<void> {
  const args = isEntryArgs(argv) ? argv : entryArgsOrExit(argv);
  if (args.transport === 'stdio') {
    server.stdio();
    return;
  }
  const warning = exposureWarning(args);
  if (warning !== undefined) process.stderr.write(`${warning}\n`);
  // A port in use or an address not on this machine is one line and exit 1, not a stack trace.
  const running = await server.listen({ ...listenOptions, ...httpEntryOptions(args) }).catch((e: unknown) => {
    process.stderr.write(`cannot listen on ${args.host}:${args.port}: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
  process.stderr.write(`listening on ${running.url}\n`);
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

export type Awaitable<T> = T | Promise<T>;
