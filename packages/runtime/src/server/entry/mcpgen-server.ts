import { InMemoryServerEventBus } from '@modelcontextprotocol/server';
import type { ChangeNotifier } from '../core/context.js';
import { MemoryTaskStore } from '../tasks/memory-store.js';
import { createServerFactory, type HandlerTable, type ServerFactory, type ServerOptions } from '../dispatch/create-server.js';
import type { ServerDefinition } from '../core/definition.js';
import { exposedDefinition } from '../core/exposure.js';
import { createHttpHandler, type HttpHandler, type HttpOptions } from '../transport/http.js';
import { listen, type ListenOptions, type RunningServer } from '../transport/node-http.js';
import { serveStdio } from '../transport/stdio.js';
import { runWorker } from './worker.js';
import { unknownLimitedTool } from './settings.js';
import { createServerMetrics } from '../ops/server-metrics.js';
import { lazyRateLimiter } from '../ops/rate-limit.js';
import { logFormat, logLine, logText } from '../core/log.js';
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
  /** What is wrong with the options (e.g. a rate limit for a tool the spec lacks): serving throws it. */
  readonly configError?: string;
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
  // A limit for a tool the spec lacks would never apply: refused when serving (runMain: one line, exit 1).
  const limiter = options.rateLimiter;
  const configError = limiter === undefined ? undefined : unknownLimitedTool(spec.tools.map((t) => t.definition.name), limiter.tools, limiter.toolsSource);
  const refuseBadConfig = () => {
    if (configError !== undefined) throw new Error(configError);
  };
  // One task store per server, shared by the factory (tasks/*) and the HTTP face (notifications/tasks).
  const taskStore = options.taskStore ?? (definition.tools.some((t) => t.task !== undefined) ? new MemoryTaskStore() : undefined);
  // With telemetry: refusals counted on both faces (one limiter), the task and listen-stream gauges.
  const metrics = options.telemetry === undefined ? undefined : createServerMetrics(options.telemetry);
  // The spec's limits, counted in this process, when no limiter was handed in (serverOptionsFromEnv makes one with them).
  const given = options.rateLimiter ?? (spec.rateLimits !== undefined ? lazyRateLimiter(spec.rateLimits, spec.info.name) : undefined);
  const rateLimiter = given === undefined || metrics === undefined ? given : metrics.countRefusals(given);
  const factory = createServerFactory(definition, handlers as HandlerTable, { notifier, ...options, bus, ...(taskStore !== undefined ? { taskStore } : {}), ...(rateLimiter !== undefined ? { rateLimiter } : {}) });
  if (metrics !== undefined && factory.runningTasks !== undefined) metrics.observeTasks(factory.runningTasks);
  // Both eras by default, as the SDK's own entry points do: most hosts still open with 2025-11-25 initialize.
  const legacy = options.legacy ?? true;
  const http = (httpOptions: HttpOptions = {}) => {
    // Auth settings of the entry point (issuers, resource per environment) refine the server's, never drop them.
    const auth = options.auth !== undefined || httpOptions.auth !== undefined ? { auth: { ...options.auth, ...httpOptions.auth } } : {};
    const readiness = [...(options.readiness ?? []), ...(httpOptions.readiness ?? [])];
    const limits = rateLimiter !== undefined ? { rateLimiter } : {};
    const handler = createHttpHandler(factory, definition, { legacy, bus, ...(taskStore !== undefined ? { taskStore } : {}), ...limits, ...httpOptions, ...auth, readiness });
    if (metrics === undefined) return handler;
    return { ...handler, fetch: async (request: Request) => metrics.countListenStream(request, await handler.fetch(request)) };
  };
  return {
    factory,
    http,
    listen: async (opts = {}) => {
      refuseBadConfig();
      const handler = http({ endpointPath: opts.path ?? '/mcp', ...opts });
      const running = await listen(handler, opts);
      // Shutdown drains the tasks run here alongside the HTTP requests, within the same grace period.
      const close = async (graceMs = 10_000) => {
        await Promise.all([running.close(graceMs), factory.drainTasks?.(graceMs)]);
      };
      return { ...running, close, notify: handler.notify };
    },
    stdio: () => {
      refuseBadConfig();
      return serveStdio(factory, { legacy, bus });
    },
    ...(configError !== undefined ? { configError } : {}),
  };
}

/**
 * The entry point of a generated `main.ts`: `--stdio` (default) or `--http [--port N] [--host H]
 * [--allowed-hosts …] [--allowed-origins …]` (entry-args.ts; argv is parsed here when not parsed yet).
 * On SIGTERM/SIGINT an HTTP server stops accepting, drains in-flight requests, then exits.
 */
export async function runMain(server: McpgenServer, argv: readonly string[] | EntryArgs = process.argv.slice(2), listenOptions: ListenOptions & HttpOptions = {}): Promise<void> {
  const args = isEntryArgs(argv) ? argv : entryArgsOrExit(argv);
  if (server.configError !== undefined) {
    logText('error', server.configError);
    process.exit(1);
  }
  if (args.transport === 'stdio') {
    server.stdio();
    return;
  }
  if (args.taskRole === 'worker') return runWorker(server.factory, args);
  if (args.taskRole === 'front') setFront(server);
  const warning = exposureWarning(args);
  if (warning !== undefined) logText('warn', warning, '');
  // A port in use or an address not on this machine is one line and exit 1, not a stack trace.
  const running = await server.listen({ ...listenOptions, ...httpEntryOptions(args) }).catch((e: unknown) => {
    logText('error', `cannot listen on ${args.host}:${args.port}: ${e instanceof Error ? e.message : String(e)}`, '');
    process.exit(1);
  });
  // Text: the bare line scripts and tests wait for; JSON: the URL as a field.
  if (logFormat() === 'json') logLine('info', 'listening', { url: running.url });
  else process.stderr.write(`listening on ${running.url}\n`);
  const stop = () => {
    // Readiness goes 503 at once; with a shutdown delay the server keeps serving while the balancer notices.
    running.startDraining();
    const delay = (args.shutdownDelaySeconds ?? 0) * 1000;
    setTimeout(() => void running.close().then(() => process.exit(0)), delay);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** `--front`: this instance queues task handlers for the workers; refused (exit 1) without a shared store. */
function setFront(server: McpgenServer): void {
  try {
    server.factory.setTaskRole?.('front');
  } catch (e) {
    logText('error', `--front: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}

export type Awaitable<T> = T | Promise<T>;
