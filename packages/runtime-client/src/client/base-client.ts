// @mcpgen/runtime-client: the base of generated clients, on the SDK's Client. The SDK sends the per-request
// _meta envelope, the standard headers and (given a toolDefinition) Mcp-Param-*; it fulfils MRTR input
// requests through the elicitation handler. What we add: static tool definitions on every call (no
// tools/list round trip first), one refresh-and-retry on HeaderMismatch, typed results, listen() as an
// async iterator, one replay of a request whose pooled connection died before any response (replay-fetch.ts),
// and OAuth 2.1 authorization on the SDK's auth() (oauth-fetch.ts, oauth-providers.ts).
import { Client, ProtocolError, type OAuthClientProvider, StreamableHTTPClientTransport, type CallToolResult, type ContentBlock, type GetPromptResult, type ReadResourceResult, type Tool, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expandUriTemplate } from '@mcpgen/runtime/shared';
import { oauthFetch, type ClientAuthOptions } from '../auth/oauth-fetch.js';
import { replayingFetch, replayPolicy, type ConnectionRetry } from '../transport/replay-fetch.js';
import { skillsClientFor, type McpgenSkills } from '../extensions/skills.js';
import { elicitRequestInfo, type ElicitAnswer, type ElicitRequestInfo } from '../core/elicit.js';
import { interceptTaskAnswers, taskFromError, taskHandle, TASKS_EXTENSION, type TaskState, type ToolStart } from '../tasks/tasks.js';
import { traceClientRequests, type ClientOpenTelemetryApi } from '../transport/client-spans.js';
import { interceptRateLimits, rateLimitErrorOf } from '../transport/rate-limit.js';
import { connectError, isUnreachable } from './connect-error.js';

export type { ElicitAnswer, ElicitRequestInfo };

export const HEADER_MISMATCH = -32020;

export type ClientTarget =
  | {
      readonly url: string | URL;
      readonly headers?: Readonly<Record<string, string>>;
      readonly fetch?: typeof fetch;
      /** OAuth 2.1 authorization (HTTP only): an SDK OAuthClientProvider or one of mcpgen's (clientCredentials, privateKeyJwt, authorizationCode). */
      readonly auth?: OAuthClientProvider | ClientAuthOptions;
    }
  | { readonly command: string; readonly args?: readonly string[]; readonly env?: Readonly<Record<string, string>>; readonly cwd?: string }
  | { readonly transport: Transport };

export interface ClientOptions {
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** Answers the server's input requests (MRTR elicitation). Without it the client declares no elicitation support. */
  readonly onElicit?: (request: ElicitRequestInfo) => ElicitAnswer | Promise<ElicitAnswer>;
  /**
   * `'auto'` (default): probe with server/discover and fall back to the 2025-11-25 initialize handshake
   * only when the server is not modern. `'modern'`: 2026-07-28 only, fail otherwise.
   */
  readonly negotiation?: 'auto' | 'modern';
  /** Per-request timeout in ms (SDK default 60000). */
  readonly timeoutMs?: number;
  /**
   * Over HTTP, send a request once more when its connection died before any response (a pooled
   * keep-alive connection the server had closed). `'safe'` (default): everything but tools/call, and
   * tools/call of tools annotated readOnlyHint or idempotentHint; `'always'`; `'never'`.
   */
  readonly connectionRetry?: ConnectionRetry;
  /**
   * OpenTelemetry: pass the `@opentelemetry/api` module (`import * as api from '@opentelemetry/api'`) and every
   * request after connect gets a CLIENT span whose context travels in `params._meta` (transport/client-spans.ts).
   */
  readonly telemetry?: ClientOpenTelemetryApi;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly onProgress?: (progress: { progress: number; total?: number | undefined; message?: string | undefined }) => void;
  /** Extra request `_meta` keys (user keys only). */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** A tool result with `structuredContent` typed by the tool's output schema. */
export interface ToolCallResult<O> {
  readonly isError: boolean;
  readonly content: readonly ContentBlock[];
  readonly structuredContent: O | undefined;
  readonly raw: CallToolResult;
}

export type ChangeNotification =
  | { readonly method: 'notifications/tools/list_changed' }
  | { readonly method: 'notifications/prompts/list_changed' }
  | { readonly method: 'notifications/resources/list_changed' }
  | { readonly method: 'notifications/resources/updated'; readonly uri: string };

export interface ListenFilter {
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  readonly resourceSubscriptions?: readonly string[];
}

export interface Subscription extends AsyncIterable<ChangeNotification> {
  /** What the server agreed to send (it may honour less than asked). */
  readonly honored: ListenFilter;
  close(): Promise<void>;
}

export abstract class McpgenClient {
  #sdk: Client | undefined;
  readonly #tools: Map<string, Tool>;
  // Definitions the server listed, for the annotations of tools this client was not generated with.
  readonly #listed = new Map<string, Tool>();
  #onElicit: ClientOptions['onElicit'];

  protected constructor(tools: readonly Tool[]) {
    this.#tools = new Map(tools.map((t) => [t.name, t]));
  }

  /** The underlying SDK client, for anything the typed surface does not cover. */
  get sdk(): Client {
    if (this.#sdk === undefined) throw new Error('client is not connected');
    return this.#sdk;
  }

  /** The server's skills (SEP-2640): list, get, read and load, every file verified against its entry. */
  get skills(): McpgenSkills {
    return skillsClientFor(this.sdk);
  }

  protected async open(target: ClientTarget, options: ClientOptions, defaultName: string): Promise<void> {
    const sdk = new Client(options.clientInfo ?? { name: defaultName, version: '0.0.0' }, {
      // Tasks are declared always: callTool follows a task answer to its end (tasks.ts).
      capabilities: { ...(options.onElicit ? { elicitation: { form: {}, url: {} } } : {}), extensions: { [TASKS_EXTENSION]: {} } },
      versionNegotiation: { mode: options.negotiation === 'modern' ? { pin: '2026-07-28' } : 'auto' },
    });
    const onElicit = options.onElicit;
    this.#onElicit = onElicit;
    if (onElicit !== undefined) {
      sdk.setRequestHandler('elicitation/create', async (req) => {
        const answer = await onElicit(elicitRequestInfo(req.params as Record<string, unknown>));
        return answer as never;
      });
    }
    const mayReplay = replayPolicy(options.connectionRetry ?? 'safe', (name) => (this.#tools.get(name) ?? this.#listed.get(name))?.annotations);
    const transport = transportFor(target, mayReplay);
    try {
      await sdk.connect(transport, options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : undefined);
    } catch (error) {
      // The SDK's message names neither the URL nor why ("fetch failed"): say both when the server was never reached.
      throw 'url' in target && isUnreachable(error) ? connectError(target.url, error) : error;
    }
    interceptTaskAnswers(transport);
    interceptRateLimits(transport);
    // After the task tap, so the span tap sits outermost and sees a task answer as the success it is.
    if (options.telemetry !== undefined) traceClientRequests(options.telemetry, transport, 'url' in target ? new URL(target.url) : 'command' in target ? 'stdio' : undefined);
    this.#sdk = sdk;
  }

  /** Call a tool by name with its static definition, so headers are right on the first request. A task answer is followed to its end. */
  protected async callTool<O>(name: string, args: unknown, options: CallOptions = {}): Promise<ToolCallResult<O>> {
    const started = await this.startTool<O>(name, args, options, true);
    return started.task !== undefined ? started.task.result(options) : started.result;
  }

  /** Like callTool, but a task answer comes back as a handle the host drives (tasks.ts). */
  protected async startTool<O>(name: string, args: unknown, options: CallOptions = {}, failOnInput = false): Promise<ToolStart<ToolCallResult<O>>> {
    const params = { name, arguments: (args ?? {}) as Record<string, unknown>, ...(options.meta ? { _meta: { ...options.meta } } : {}) };
    const request = (toolDefinition: Tool | undefined) =>
      this.sdk.callTool(params, {
        ...(toolDefinition !== undefined ? { toolDefinition } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
        ...(options.onProgress ? { onprogress: options.onProgress } : {}),
      });
    const attempt = (toolDefinition: Tool | undefined) =>
      request(toolDefinition).then(
        (raw): CallToolResult | TaskState => raw,
        // Over stdio a rate limit is the JSON-RPC error alone: typed here as the HTTP tap types the 429.
        (e: unknown) => taskFromError(e) ?? Promise.reject(rateLimitErrorOf(e) ?? e),
      );
    let answer: CallToolResult | TaskState;
    try {
      answer = await attempt(this.#tools.get(name));
    } catch (e) {
      if (!(e instanceof ProtocolError) || e.code !== HEADER_MISMATCH) throw e;
      // X7: the server's view of the tool differs from ours; use its definition once.
      const live = (await this.listAllTools()).find((t) => t.name === name);
      if (live === undefined) throw e;
      this.#tools.set(name, live);
      answer = await attempt(live);
    }
    if ('taskId' in answer && 'status' in answer) {
      return { task: taskHandle(this.sdk, answer as TaskState, toolCallResult<O>, { ...(this.#onElicit ? { onElicit: this.#onElicit } : {}), failOnInput }) };
    }
    return { result: toolCallResult<O>(answer as CallToolResult) };
  }

  protected readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    return this.sdk.readResource({ uri, ...(options.meta ? { _meta: { ...options.meta } } : {}) }, requestOptions(options));
  }

  protected readTemplate(template: string, variables: Readonly<Record<string, unknown>>, options: CallOptions = {}): Promise<ReadResourceResult> {
    // Our own expansion, the inverse of the generated server's matching (the SDK's UriTemplate leaves values
    // of multi-variable expressions unencoded, drops the names of `{;x}` and the dots of `{.x}` values).
    return this.readResource(expandUriTemplate(template, variables), options);
  }

  protected getPrompt(name: string, args: Readonly<Record<string, string | undefined>>, options: CallOptions = {}): Promise<GetPromptResult> {
    // fromEntries keeps an argument named `__proto__` as data (assigning it would set a prototype).
    const defined = Object.fromEntries(Object.entries(args).filter((e): e is [string, string] => e[1] !== undefined));
    return this.sdk.getPrompt({ name, arguments: defined, ...(options.meta ? { _meta: { ...options.meta } } : {}) }, requestOptions(options));
  }

  /** Every tool the server lists now, following cursors. */
  async listAllTools(): Promise<Tool[]> {
    const out: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.sdk.listTools(cursor !== undefined ? { cursor } : undefined);
      out.push(...page.tools);
      for (const tool of page.tools) this.#listed.set(tool.name, tool);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return out;
  }

  /** subscriptions/listen as an async iterator of change notifications. */
  async listen(filter: ListenFilter): Promise<Subscription> {
    const queue: ChangeNotification[] = [];
    let wake: (() => void) | undefined;
    let ended = false;
    const push = (n: ChangeNotification) => {
      queue.push(n);
      wake?.();
    };
    const methods = ['notifications/tools/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/list_changed'] as const;
    for (const method of methods) this.sdk.setNotificationHandler(method, () => push({ method } as ChangeNotification));
    this.sdk.setNotificationHandler('notifications/resources/updated', (n) => push({ method: 'notifications/resources/updated', uri: n.params.uri }));
    const { resourceSubscriptions, ...flags } = filter;
    const sub = await this.sdk.listen({ ...flags, ...(resourceSubscriptions ? { resourceSubscriptions: [...resourceSubscriptions] } : {}) });
    void sub.closed.then(() => {
      ended = true;
      wake?.();
    });
    return {
      honored: sub.honoredFilter as ListenFilter,
      close: () => sub.close(),
      async *[Symbol.asyncIterator]() {
        for (;;) {
          const next = queue.shift();
          if (next !== undefined) {
            yield next;
            continue;
          }
          if (ended) return;
          await new Promise<void>((r) => (wake = r));
          wake = undefined;
        }
      },
    };
  }

  async close(): Promise<void> {
    await this.#sdk?.close();
  }
}

/** An elicitation request's params as onElicit sees them (MRTR rounds and task input alike). */

function toolCallResult<O>(raw: CallToolResult): ToolCallResult<O> {
  return { isError: raw.isError === true, content: raw.content, structuredContent: raw.structuredContent as O | undefined, raw };
}

function requestOptions(options: CallOptions) {
  return { ...(options.signal ? { signal: options.signal } : {}), ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}) };
}

function transportFor(target: ClientTarget, mayReplay: (message: unknown) => boolean): Transport {
  if ('transport' in target) return target.transport;
  if ('url' in target) {
    const url = new URL(target.url);
    const base = target.fetch ?? ((input: string | URL | Request, init?: RequestInit) => fetch(input, init));
    const replaying = replayingFetch(base, mayReplay);
    const auth = target.auth === undefined ? undefined : 'provider' in target.auth ? target.auth : { provider: target.auth };
    return new StreamableHTTPClientTransport(url, {
      ...(target.headers ? { requestInit: { headers: { ...target.headers } } } : {}),
      // Authorization wraps the replay: a replayed request carries the token it was sent with.
      fetch: auth === undefined ? replaying : (oauthFetch(replaying, base, url, auth) as typeof fetch),
    });
  }
  return new StdioClientTransport({
    command: target.command,
    ...(target.args ? { args: [...target.args] } : {}),
    ...(target.env ? { env: { ...target.env } } : {}),
    ...(target.cwd ? { cwd: target.cwd } : {}),
    stderr: 'inherit',
  });
}
