// Builds the SDK's low-level Server for one request (HTTP) or one connection (stdio) from a generated
// ServerDefinition and the user's handlers. Everything derived from the definition (lists, pages,
// validators, lookup maps) is built once in createServerFactory, so per-request cost does not grow
// with the number of tools.
import {
  ProtocolError,
  ResourceNotFoundError,
  Server,
  inputRequired,
  type CallToolResult,
  type GetPromptResult,
  type ReadResourceResult,
  type ServerContext,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { matchUriTemplate } from '../shared/uri-template.js';
import { buildElicit, type ChangeNotifier, type RequestContext, type ToolContext } from './context.js';
import type { ServerDefinition, ToolSpec } from './definition.js';
import { inputRequiredReply, isInputRequiredReply, isToolReply, type InputRequiredReply, type PromptReply, type ResourceReply } from './replies.js';
import { bindingOf, processLocalKeyRing, RequestStateKeyRing, type RequestStateKey } from './request-state.js';
import { createValidatorCompiler, type Validator } from './validators.js';

const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

export interface ServerOptions {
  /** Items per page of tools/list, resources/list, resources/templates/list, prompts/list. Default 100. */
  readonly pageSize?: number;
  /** Default upper bound for tool handlers, in ms (a tool's `timeoutMs` in the spec wins). Default: none. */
  readonly toolTimeoutMs?: number;
  /** Called with every error a handler throws (the client sees only a safe message). Default: stderr. */
  readonly onHandlerError?: (error: unknown, where: string) => void;
  /** Where `ctx.notify` publishes change events (createMcpgenServer wires the HTTP handler's bus). */
  readonly notifier?: ChangeNotifier;
  /**
   * Keys that seal MRTR `requestState` (the first signs, all verify; every instance needs the same).
   * Default: one random key per process — fine for one instance, refused across instances.
   */
  readonly requestStateKeys?: RequestStateKeyRing | readonly RequestStateKey[];
  /** How long a sealed `requestState` stays valid. Default 600 s (ignored when a ring is given). */
  readonly requestStateTtlSeconds?: number;
  /**
   * Where change events go and `subscriptions/listen` streams hear them (createMcpgenServer). Default:
   * in this process only; `createRedisEventBus` shares them between instances.
   */
  readonly bus?: ServerEventBus;
}

const NO_LISTENERS: ChangeNotifier = { toolsChanged() {}, promptsChanged() {}, resourcesChanged() {}, resourceUpdated() {} };

type AnyHandler = (...args: unknown[]) => unknown;
export type HandlerTable = { readonly [method: string]: AnyHandler | undefined };

interface PreparedTool {
  readonly spec: ToolSpec;
  readonly validateInput: Validator;
  readonly validateOutput: Validator | undefined;
}

/** Compile on first use: start-up stays fast with many tools, and each schema compiles once. */
function lazy(compile: (schema: Readonly<Record<string, unknown>>) => Validator, schema: Readonly<Record<string, unknown>>): Validator {
  let v: Validator | undefined;
  return (value) => (v ??= compile(schema))(value);
}

export type ServerFactory = () => Server;

export function createServerFactory(def: ServerDefinition, handlers: HandlerTable, options: ServerOptions = {}): ServerFactory {
  const compile = createValidatorCompiler();
  const pageSize = Math.max(1, options.pageSize ?? 100);
  const notifier = options.notifier ?? NO_LISTENERS;
  const keys = options.requestStateKeys;
  const ring = keys instanceof RequestStateKeyRing ? keys : keys !== undefined ? new RequestStateKeyRing(keys, options.requestStateTtlSeconds) : processLocalKeyRing(options.requestStateTtlSeconds);
  /** The echoed state opened for the handler (refused before it runs when it fails), and the reply's sealed. */
  const openState = (ctx: ServerContext, binding: string): Promise<string | undefined> => {
    const wire = readRequestState(ctx);
    return wire === undefined ? Promise.resolve(undefined) : ring.open(wire, binding, ctx);
  };
  const inputRequiredResult = async (out: InputRequiredReply, binding: string) =>
    inputRequired({ inputRequests: out.inputRequests as never, ...(out.requestState !== undefined ? { requestState: await ring.seal(out.requestState, binding) } : {}) });
  const onError = options.onHandlerError ?? ((e: unknown, where: string) => process.stderr.write(`[mcpgen] ${where}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`));
  const tools = new Map<string, PreparedTool>(
    def.tools.map((spec) => [
      spec.definition.name,
      {
        spec,
        validateInput: lazy(compile, spec.definition.inputSchema),
        validateOutput: spec.definition.outputSchema ? lazy(compile, spec.definition.outputSchema) : undefined,
      },
    ]),
  );
  const resources = new Map(def.resources.map((r) => [r.definition.uri, r]));
  const templates = def.resourceTemplates.map((t) => ({ spec: t, match: (uri: string) => matchUriTemplate(t.definition.uriTemplate, uri) }));
  const prompts = new Map(def.prompts.map((p) => [p.definition.name, p]));
  const pages = {
    tools: paginate(def.tools.map((t) => t.definition), pageSize),
    resources: paginate(def.resources.map((r) => r.definition), pageSize),
    resourceTemplates: paginate(def.resourceTemplates.map((t) => t.definition), pageSize),
    prompts: paginate(def.prompts.map((p) => p.definition), pageSize),
  };
  const cacheHints = {
    'server/discover': def.listCache,
    'tools/list': def.listCache,
    'resources/list': def.listCache,
    'resources/templates/list': def.listCache,
    'prompts/list': def.listCache,
  };
  /** A handler's failure as the JSON-RPC error the client sees: protocol errors pass, the rest is logged. */
  const internal = (e: unknown, where: string, safeMessage: string): ProtocolError => {
    if (e instanceof ProtocolError) return e;
    onError(e, where);
    return new ProtocolError(INTERNAL_ERROR, safeMessage);
  };
  const handler = (method: string): AnyHandler => {
    const h = handlers[method];
    if (typeof h !== 'function') throw new ProtocolError(INTERNAL_ERROR, `Server has no handler for ${method}`);
    return h.bind(handlers);
  };

  async function callTool(name: string, args: unknown, ctx: ServerContext, server: Server): Promise<CallToolResult | ReturnType<typeof inputRequired>> {
    const tool = tools.get(name);
    if (tool === undefined) throw new ProtocolError(INVALID_PARAMS, `Unknown tool: ${name}`);
    const input = args ?? {};
    const invalid = tool.validateInput(input);
    if (invalid !== undefined) return errorResult(`Invalid arguments for tool ${name}: ${invalid}`);
    const binding = bindingOf('tools/call', name, input);
    const state = await openState(ctx, binding);
    const timeoutMs = tool.spec.timeoutMs ?? options.toolTimeoutMs;
    const abort = new AbortController();
    const onAbort = () => abort.abort(ctx.mcpReq.signal.reason);
    ctx.mcpReq.signal.addEventListener('abort', onAbort, { once: true });
    const progressToken = (ctx.mcpReq._meta as { progressToken?: string | number } | undefined)?.progressToken;
    const context: ToolContext<Record<string, unknown>> = {
      ...requestContext(ctx, abort.signal, notifier, state),
      elicit: buildElicit(tool.spec.elicit, ctx.mcpReq.inputResponses),
      async progress(progress, total, message) {
        if (progressToken === undefined || abort.signal.aborted) return;
        await ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) },
        });
      },
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      const run = Promise.resolve(handler(tool.spec.method)(input, context));
      const out = timeoutMs === undefined ? await run : await Promise.race([run, new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          abort.abort(new Error('timeout'));
          reject(new ToolTimeout(timeoutMs));
        }, timeoutMs);
      })]);
      if (isInputRequiredReply(out)) return await inputRequiredResult(out, binding);
      const result = toCallToolResult(out, tool.spec.definition.outputSchema !== undefined);
      if (tool.validateOutput !== undefined && !result.isError) {
        const bad = tool.validateOutput(result.structuredContent);
        if (bad !== undefined) {
          onError(new Error(`structuredContent does not match the output schema: ${bad}`), `tool ${name}`);
          return errorResult(`Tool ${name} produced output that does not match its output schema`);
        }
      }
      return server.projectCallToolResult(result, tool.spec.definition.outputSchema);
    } catch (e) {
      if (e instanceof ToolTimeout) return errorResult(`Tool ${name} timed out after ${e.ms} ms`);
      if (e instanceof ProtocolError) throw e;
      onError(e, `tool ${name}`);
      return errorResult(`Tool ${name} failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      ctx.mcpReq.signal.removeEventListener('abort', onAbort);
    }
  }

  async function readResource(uri: string, ctx: ServerContext): Promise<ReadResourceResult | ReturnType<typeof inputRequired>> {
    const fixed = resources.get(uri);
    let out: unknown;
    let mimeType: string | undefined;
    let cache: { ttlMs: number; cacheScope: 'public' | 'private' } | undefined;
    const binding = bindingOf('resources/read', uri, {});
    const state = await openState(ctx, binding);
    try {
      if (fixed !== undefined) {
        mimeType = fixed.definition.mimeType;
        cache = fixed.cache;
        out = await handler(fixed.method)(requestContext(ctx, ctx.mcpReq.signal, notifier, state));
      } else {
        const match = templates.map((t) => ({ t, vars: t.match(uri) })).find((m) => m.vars !== null);
        if (match === undefined) throw new ResourceNotFoundError(uri);
        mimeType = match.t.spec.definition.mimeType;
        cache = match.t.spec.cache;
        out = await handler(match.t.spec.method)(match.vars, requestContext(ctx, ctx.mcpReq.signal, notifier, state));
      }
    } catch (e) {
      throw internal(e, `resource ${uri}`, `Reading ${uri} failed`);
    }
    if (isInputRequiredReply(out)) return inputRequiredResult(out, binding);
    return { contents: toContents(out as ResourceReply, uri, mimeType), ...(cache ?? {}) };
  }

  async function getPrompt(name: string, args: Record<string, string> | undefined, ctx: ServerContext): Promise<GetPromptResult | ReturnType<typeof inputRequired>> {
    const prompt = prompts.get(name);
    if (prompt === undefined) throw new ProtocolError(INVALID_PARAMS, `Unknown prompt: ${name}`);
    const given = args ?? {};
    for (const a of prompt.definition.arguments ?? []) {
      if (a.required && typeof given[a.name] !== 'string') throw new ProtocolError(INVALID_PARAMS, `Missing required argument "${a.name}" for prompt ${name}`);
    }
    const binding = bindingOf('prompts/get', name, given);
    const state = await openState(ctx, binding);
    let out: unknown;
    try {
      out = await handler(prompt.method)(given, requestContext(ctx, ctx.mcpReq.signal, notifier, state));
    } catch (e) {
      throw internal(e, `prompt ${name}`, `Prompt ${name} failed`);
    }
    if (isInputRequiredReply(out)) return inputRequiredResult(out, binding);
    return toPromptResult(out as PromptReply, prompt.definition.description);
  }

  return () => {
    const server = new Server(def.info, {
      capabilities: def.capabilities,
      ...(def.instructions !== undefined ? { instructions: def.instructions } : {}),
      cacheHints,
    });
    if (def.capabilities.tools) {
      server.setRequestHandler('tools/list', (req) => page(pages.tools, req.params?.cursor, (items) => ({ tools: items })));
      server.setRequestHandler('tools/call', (req, ctx) => callTool(req.params.name, req.params.arguments, ctx, server) as never);
    }
    if (def.capabilities.resources) {
      server.setRequestHandler('resources/list', (req) => page(pages.resources, req.params?.cursor, (items) => ({ resources: items })));
      server.setRequestHandler('resources/templates/list', (req) => page(pages.resourceTemplates, req.params?.cursor, (items) => ({ resourceTemplates: items })));
      server.setRequestHandler('resources/read', (req, ctx) => readResource(req.params.uri, ctx) as never);
    }
    if (def.capabilities.prompts) {
      server.setRequestHandler('prompts/list', (req) => page(pages.prompts, req.params?.cursor, (items) => ({ prompts: items })));
      server.setRequestHandler('prompts/get', (req, ctx) => getPrompt(req.params.name, req.params.arguments, ctx) as never);
    }
    if (def.capabilities.completions) {
      server.setRequestHandler('completion/complete', async (req, ctx) => {
        const complete = handlers.complete;
        const values = typeof complete === 'function' ? ((await complete.call(handlers, req.params, requestContext(ctx, ctx.mcpReq.signal, notifier, undefined))) as string[]) : [];
        return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
      });
    }
    return server;
  };
}

class ToolTimeout extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

function requestContext(ctx: ServerContext, signal: AbortSignal, notify: ChangeNotifier, requestState: string | undefined): RequestContext {
  const req = (ctx as { http?: { req?: Request } }).http?.req;
  return {
    signal,
    requestId: ctx.mcpReq.id,
    meta: (ctx.mcpReq._meta ?? {}) as Record<string, unknown>,
    ...(req !== undefined ? { httpRequest: req } : {}),
    // The SDK types the envelope as {}: the key is the spec's, the value a ClientCapabilities object.
    clientCapabilities: ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/clientCapabilities'] ?? {}) as Record<string, unknown>,
    inputResponses: ctx.mcpReq.inputResponses,
    requestState,
    inputRequired: inputRequiredReply,
    notify,
  };
}

/** Without a verify hook the SDK's accessor returns the raw wire string (attacker-controlled: MR6, opened by the ring). */
function readRequestState(ctx: ServerContext): string | undefined {
  const value = ctx.mcpReq.requestState<unknown>();
  return typeof value === 'string' ? value : undefined;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function toCallToolResult(out: unknown, hasOutputSchema: boolean): CallToolResult {
  if (isToolReply(out)) {
    const structured = out.structuredContent;
    const content = out.content ?? (structured !== undefined ? [{ type: 'text' as const, text: JSON.stringify(structured) }] : []);
    return { content: [...content], ...(structured !== undefined ? { structuredContent: structured } : {}), ...(out.isError ? { isError: true } : {}) };
  }
  if (hasOutputSchema) return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out as never };
  if (typeof out === 'string') return { content: [{ type: 'text', text: out }] };
  if (Array.isArray(out)) return { content: out };
  if (out === undefined || out === null) return { content: [] };
  return { content: [{ type: 'text', text: JSON.stringify(out) }] };
}

function toContents(out: ResourceReply, uri: string, mimeType: string | undefined): ReadResourceResult['contents'] {
  const mt = mimeType !== undefined ? { mimeType } : {};
  if (typeof out === 'string') return [{ uri, ...mt, text: out }];
  if (out instanceof Uint8Array) return [{ uri, ...mt, blob: Buffer.from(out).toString('base64') }];
  if (Array.isArray(out)) return out;
  return (out as { contents: ReadResourceResult['contents'] }).contents;
}

function toPromptResult(out: PromptReply, description: string | undefined): GetPromptResult {
  const desc = description !== undefined ? { description } : {};
  if (typeof out === 'string') return { ...desc, messages: [{ role: 'user', content: { type: 'text', text: out } }] };
  if (Array.isArray(out)) return { ...desc, messages: [...out] };
  return out as GetPromptResult;
}

interface Pages<T> {
  readonly pages: readonly T[][];
}

function paginate<T>(items: readonly T[], size: number): Pages<T> {
  const pages: T[][] = [];
  for (let i = 0; i < items.length; i += size) pages.push(items.slice(i, i + size));
  return { pages: pages.length === 0 ? [[]] : pages };
}

/** Cursors are opaque to clients: `p<index>` in base64url. Anything else is -32602. */
function page<T, R>(p: Pages<T>, cursor: string | undefined, wrap: (items: T[]) => R): R & { nextCursor?: string } {
  let index = 0;
  if (cursor !== undefined) {
    const decoded = /^p(\d{1,6})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
    index = decoded === null ? -1 : Number(decoded[1]);
    if (index < 1 || index >= p.pages.length) throw new ProtocolError(INVALID_PARAMS, 'Invalid cursor');
  }
  const next = index + 1 < p.pages.length ? { nextCursor: Buffer.from(`p${index + 1}`).toString('base64url') } : {};
  return { ...wrap(p.pages[index]!), ...next };
}
