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
import { applyDefaults, defaultsPlan, type DefaultsPlan } from '../shared/input-defaults.js';
import { matchUriTemplate, templateValueProblem } from '../shared/uri-template.js';
import { missingScopes, principalKeyOf, principalOf, type AuthOptions } from './auth.js';
import { buildElicit, type ChangeNotifier, type RequestContext, type ToolContext } from './context.js';
import type { AppSpec, ServerDefinition, ToolSpec } from './definition.js';
import { inputRequiredReply, isInputRequiredReply, isToolReply, PublicError, type InputRequiredReply, type PromptReply, type ResourceReply } from './replies.js';
import { exceedsJsonSize } from './response-size.js';
import { bindingOf, lazyBindingOf, processLocalKeyRing, RequestStateKeyRing, type RequestStateKey } from './request-state.js';
import { serverWithSkills, type SkillResources } from './skills.js';
import type { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import { createValidatorCompiler, type Validator } from './validators.js';
import { MemoryTaskStore } from './tasks/memory-store.js';
import { registerTaskMethods } from './tasks/methods.js';
import { TaskRunner, TaskStopped, type TaskSettings } from './tasks/runner.js';
import { TaskAwareServer, TaskCreated } from './tasks/server-class.js';
import type { TaskStore } from './tasks/store.js';
import { createTaskResult, declaresTasks, missingTasksCapability, TASKS_EXTENSION } from './tasks/wire.js';
import { fastEligibleTool, takePrecomputed, type FastServerHooks } from './fast-path-hooks.js';

const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

export interface ServerOptions {
  /** Items per page of tools/list, resources/list, resources/templates/list, prompts/list. Default 100. */
  readonly pageSize?: number;
  /** Default upper bound for tool handlers, in ms (a tool's `timeoutMs` in the spec wins). Default: none. */
  readonly toolTimeoutMs?: number;
  /**
   * Called with every unexpected error a handler throws; the client sees only a generic message ("Tool x
   * failed", "Reading <uri> failed"). PublicError and ProtocolError are meant for the client and are
   * not reported. Default: the stack on stderr.
   */
  readonly onHandlerError?: (error: unknown, where: string) => void;
  /**
   * Largest tool result or resource contents, as JSON text (characters, counted roughly), checked
   * before the SDK serializes it: a tool past it answers an `isError` result, a resource -32603.
   * Default: none (generated entry points set 16 MiB).
   */
  readonly maxResponseBytes?: number;
  /** Where `ctx.notify` publishes change events (createMcpgenServer wires the HTTP handler's bus). */
  readonly notifier?: ChangeNotifier;
  /** Token verification and resource identifier over HTTP, for a spec with `auth:`. */
  readonly auth?: AuthOptions;
  /**
   * tools/list shows an authenticated caller only the tools its token's scopes allow (the list may vary
   * by authorization: ST4). Default false: everyone sees every tool, calls are still refused with 403.
   */
  readonly hideForbiddenTools?: boolean;
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
  /**
   * Where tasks (tools with `task:` in the spec) live. Default: in this process (MemoryTaskStore);
   * instances behind a balancer need a shared one.
   */
  readonly taskStore?: TaskStore;
  /**
   * Skills (SEP-2640) this server serves: the catalog a generated `skills.ts` embeds, or any SDK
   * SkillsExtension (`await loadSkills(dir)` reads a folder at start-up instead).
   */
  readonly skills?: SkillsExtension;
}

const NO_LISTENERS: ChangeNotifier = { toolsChanged() {}, promptsChanged() {}, resourcesChanged() {}, resourceUpdated() {} };

type AnyHandler = (...args: unknown[]) => unknown;
export type HandlerTable = { readonly [method: string]: AnyHandler | undefined };

interface PreparedTool {
  readonly spec: ToolSpec;
  readonly validateInput: Validator;
  readonly validateOutput: Validator | undefined;
  /** Form-mode `elicit` keys → their requestedSchema's validator, for answers on the retry. */
  readonly validateAnswers: ReadonlyMap<string, Validator>;
  /** The arguments the handler gets: the input schema's defaults filled in (derived on first use). */
  readonly withDefaults: (input: unknown) => unknown;
}

/** Derive the defaults plan on first use, as validators compile (start-up stays fast with many tools). */
function defaultsOf(schema: Readonly<Record<string, unknown>>): (input: unknown) => unknown {
  let plan: DefaultsPlan | undefined | null = null;
  return (input) => applyDefaults(input, plan === null ? (plan = defaultsPlan(schema)) : plan);
}

/** Compile on first use: start-up stays fast with many tools, and each schema compiles once. */
function lazy(compile: (schema: Readonly<Record<string, unknown>>, dataVar?: string) => Validator, schema: Readonly<Record<string, unknown>>, dataVar?: string): Validator {
  let v: Validator | undefined;
  return (value) => (v ??= compile(schema, dataVar))(value);
}

export type ServerFactory = (() => Server) & {
  /** What the HTTP fast path (fast-path.ts) runs without the SDK's per-request pipeline. */
  readonly fast?: FastServerHooks;
};

export function createServerFactory(def: ServerDefinition, handlers: HandlerTable, options: ServerOptions = {}): ServerFactory {
  const compile = createValidatorCompiler();
  const pageSize = Math.max(1, options.pageSize ?? 100);
  const notifier = options.notifier ?? NO_LISTENERS;
  const keys = options.requestStateKeys;
  const given = keys instanceof RequestStateKeyRing ? keys : keys !== undefined ? new RequestStateKeyRing(keys, options.requestStateTtlSeconds) : undefined;
  // The process-local key is drawn on first use: workerd refuses random values at a module's top level.
  let local: RequestStateKeyRing | undefined;
  const ring = (): RequestStateKeyRing => given ?? (local ??= processLocalKeyRing(options.requestStateTtlSeconds));
  /** The echoed state opened for the handler (refused before it runs when it fails), and the reply's sealed. */
  /** `binding` as a function: tools/call hashes it only when a state is opened or sealed. */
  const bound = (binding: string | (() => string)): string => (typeof binding === 'string' ? binding : binding());
  const openState = (ctx: ServerContext, binding: string | (() => string)): Promise<string | undefined> => {
    const wire = readRequestState(ctx);
    return wire === undefined ? Promise.resolve(undefined) : ring().open(wire, bound(binding), ctx);
  };
  const inputRequiredResult = async (out: InputRequiredReply, binding: string | (() => string)) =>
    inputRequired({ inputRequests: out.inputRequests as never, ...(out.requestState !== undefined ? { requestState: await ring().seal(out.requestState, bound(binding)) } : {}) });
  const report = options.onHandlerError ?? ((e: unknown, where: string) => process.stderr.write(`[mcpgen] ${where}: ${describeError(e)}\n`));
  /** Never throws: a reporter that fails must not turn into the client's answer. */
  const onError = (e: unknown, where: string): void => {
    try {
      report(e, where);
    } catch (failure) {
      process.stderr.write(`[mcpgen] ${where}: onHandlerError threw (${describeError(failure)}) while reporting: ${describeError(e)}\n`);
    }
  };
  const tools = new Map<string, PreparedTool>(
    def.tools.map((spec) => [
      spec.definition.name,
      {
        spec,
        validateInput: lazy(compile, spec.definition.inputSchema),
        validateOutput: spec.definition.outputSchema ? lazy(compile, spec.definition.outputSchema) : undefined,
        withDefaults: defaultsOf(spec.definition.inputSchema),
        validateAnswers: new Map(
          Object.entries(spec.elicit).flatMap(([key, e]) => (e.mode === 'form' && e.requestedSchema !== undefined ? [[key, lazy(compile, e.requestedSchema, 'content')] as const] : [])),
        ),
      },
    ]),
  );
  // Built only when some tool can run as a task; shared by every per-request Server, like the store.
  const taskRunner = def.tools.some((t) => t.task !== undefined) ? new TaskRunner(options.taskStore ?? new MemoryTaskStore(), onError) : undefined;
  const resources = new Map(def.resources.map((r) => [r.definition.uri, r]));
  const apps = new Map((def.apps ?? []).map((a) => [a.definition.uri, a]));
  const templates = def.resourceTemplates.map((t) => ({ spec: t, match: (uri: string) => matchUriTemplate(t.definition.uriTemplate, uri) }));
  const prompts = new Map(def.prompts.map((p) => [p.definition.name, p]));
  // The spec's resources and the MCP Apps views; skill files join them per request (the catalog may reload()).
  const listedResources = [...def.resources.map((r) => r.definition), ...(def.apps ?? []).map((a) => a.definition)];
  const pages = {
    tools: paginate(def.tools.map((t) => t.definition), pageSize),
    resources: paginate(listedResources, pageSize),
    resourceTemplates: paginate(def.resourceTemplates.map((t) => t.definition), pageSize),
    prompts: paginate(def.prompts.map((p) => p.definition), pageSize),
  };
  const cacheHints = {
    'server/discover': def.listCache,
    // A filtered list depends on the caller's token: never let a shared cache hand it to someone else.
    'tools/list': options.hideForbiddenTools && def.auth !== undefined ? { ...def.listCache, cacheScope: 'private' as const } : def.listCache,
    'resources/list': def.listCache,
    'resources/templates/list': def.listCache,
    'prompts/list': def.listCache,
  };
  /**
   * A resource/prompt/completion handler's failure as the JSON-RPC error the client sees: ProtocolErrors
   * pass (notFound, protocolError), a PublicError's message is sent as -32603, anything else is reported
   * to onHandlerError and the client sees only `safeMessage`.
   */
  const internal = (e: unknown, where: string, safeMessage: string): ProtocolError => {
    const c = classify(e);
    if (c.kind === 'protocol') return e as ProtocolError;
    if (c.kind === 'public') return new ProtocolError(INTERNAL_ERROR, c.message);
    onError(e, where);
    return new ProtocolError(INTERNAL_ERROR, safeMessage);
  };
  const handler = (method: string): AnyHandler => {
    const h = handlers[method];
    if (typeof h !== 'function') throw new ProtocolError(INTERNAL_ERROR, `Server has no handler for ${method}`);
    return h.bind(handlers);
  };

  async function callTool(name: string, args: unknown, ctx: ServerContext, server: Pick<Server, 'projectCallToolResult'>): Promise<CallToolResult | ReturnType<typeof inputRequired>> {
    const tool = tools.get(name);
    if (tool === undefined) throw new ProtocolError(INVALID_PARAMS, `Unknown tool: ${name}`);
    const input = args ?? {};
    const invalid = tool.validateInput(input);
    if (invalid !== undefined) return errorResult(`Invalid arguments for tool ${name}: ${invalid}`);
    const badAnswer = answerProblem(tool, ctx.mcpReq.inputResponses);
    if (badAnswer !== undefined) throw new ProtocolError(INVALID_PARAMS, badAnswer.message, { inputResponse: badAnswer.key });
    // Bound before the handler runs: a handler that changes its arguments must not change the binding.
    const binding = lazyBindingOf('tools/call', name, input, principalKey(ctx));
    const state = await openState(ctx, binding);
    const task = tool.spec.task;
    if (task !== undefined && taskRunner !== undefined) {
      // The server alone decides, per request: a task only for a client that declared the extension.
      if (declaresTasks(ctx)) return startTask(tool, name, input, task, ctx, server, binding, state);
      if (task.support === 'required') throw missingTasksCapability(`Tool ${name}`);
    }
    // Only a timeout aborts a tool apart from its request: without one the request's signal is the tool's
    // (an AbortController and a listener fewer per call; runTool never calls abort() then).
    const own = (tool.spec.timeoutMs ?? options.toolTimeoutMs) === undefined ? undefined : new AbortController();
    // A getter: the fast path makes the request's AbortSignal only when something reads it.
    const abort: Pick<AbortController, 'signal' | 'abort'> = own ?? {
      get signal() {
        return ctx.mcpReq.signal;
      },
      abort: () => {},
    };
    const onAbort = () => own!.abort(ctx.mcpReq.signal.reason);
    if (own !== undefined) ctx.mcpReq.signal.addEventListener('abort', onAbort, { once: true });
    const progressToken = (ctx.mcpReq._meta as { progressToken?: string | number } | undefined)?.progressToken;
    let progressDropped = false;
    // Assigned onto, not spread: a spread would read the lazy httpRequest getter (the fast path's Web
    // Request, built only for a handler that reads it).
    const context: ToolContext<Record<string, unknown>> = Object.assign(requestContext(ctx, () => abort.signal, notifier, state), {
      elicit: buildElicit(tool.spec.elicit, ctx.mcpReq.inputResponses),
      async progress(progress: number, total?: number, message?: string) {
        if (progressToken === undefined || abort.signal.aborted) return;
        // Advisory: a notification that cannot be sent is logged once, never thrown into the handler.
        await ctx.mcpReq
          .notify({
            method: 'notifications/progress',
            params: { progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) },
          })
          .catch((e: unknown) => {
            if (!progressDropped) onError(e, `tool ${name}: progress dropped (later ones too, silently)`);
            progressDropped = true;
          });
      },
    });
    try {
      const out = await runTool(tool, name, input, context, abort, server);
      return isInputRequiredReply(out) ? await inputRequiredResult(out, binding) : out;
    } finally {
      if (own !== undefined) ctx.mcpReq.signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * One run of a tool's handler: its reply as the CallToolResult to send, or the input it asks for.
   * ProtocolErrors propagate; every other failure is an `isError` result.
   */
  async function runTool(tool: PreparedTool, name: string, input: unknown, context: ToolContext<Record<string, unknown>>, abort: Pick<AbortController, 'signal' | 'abort'>, server: Pick<Server, 'projectCallToolResult'>): Promise<CallToolResult | InputRequiredReply> {
    const timeoutMs = tool.spec.timeoutMs ?? options.toolTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    try {
      // Defaults are filled in here, after validation and binding: both see the arguments as sent.
      const run = Promise.resolve(handler(tool.spec.method)(tool.withDefaults(input), context));
      const out = timeoutMs === undefined ? await run : await Promise.race([run, new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          abort.abort(new Error('timeout'));
          reject(new ToolTimeout(timeoutMs));
        }, timeoutMs);
      })]);
      if (isInputRequiredReply(out)) return out;
      const result = toCallToolResult(out, tool.spec.definition.outputSchema !== undefined);
      if (options.maxResponseBytes !== undefined && exceedsJsonSize(result, options.maxResponseBytes)) {
        onError(new Error(`result exceeds maxResponseBytes (${options.maxResponseBytes})`), `tool ${name}`);
        return errorResult(`Tool ${name} produced a result larger than this server sends (${options.maxResponseBytes} bytes)`);
      }
      if (tool.validateOutput !== undefined && !result.isError) {
        const bad = tool.validateOutput(result.structuredContent);
        if (bad !== undefined) {
          onError(new Error(`structuredContent does not match the output schema: ${bad}`), `tool ${name}`);
          return errorResult(`Tool ${name} produced output that does not match its output schema`);
        }
      }
      return server.projectCallToolResult(result, tool.spec.definition.outputSchema);
    } catch (e) {
      // The client sees a thrown message only when the handler meant it (PublicError, ProtocolError);
      // other messages (file paths, SQL, stack details) go to onHandlerError alone.
      const c = classify(e);
      if (c.kind === 'timeout') return errorResult(`Tool ${name} timed out after ${(e as ToolTimeout).ms} ms`);
      if (c.kind === 'protocol') throw e;
      if (c.kind === 'public') return errorResult(c.message);
      // A task stopped on purpose (tasks/cancel, TTL): the handler's AbortError is no failure to report.
      if (abort.signal.reason instanceof TaskStopped) return errorResult(`Tool ${name} was stopped`);
      onError(e, `tool ${name}`);
      return errorResult(`Tool ${name} failed`);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }

  /**
   * tools/call of a task tool from a client that declared the extension: MRTR rounds first for the keys
   * the spec gathers before the task (`beforeTask`), then the task is created and the CreateTaskResult
   * returned (thrown past the SDK's CallToolResult check: TaskAwareServer). The handler runs in the
   * background, in rounds (tasks/runner.ts).
   */
  async function startTask(tool: PreparedTool, name: string, input: unknown, task: TaskSettings, ctx: ServerContext, server: Pick<Server, 'projectCallToolResult'>, binding: () => string, state: string | undefined): Promise<ReturnType<typeof inputRequired>> {
    const given = ctx.mcpReq.inputResponses ?? {};
    const missing = (task.beforeTask ?? []).filter((key) => !Object.hasOwn(given, key));
    if (missing.length > 0) {
      const asks = buildElicit(tool.spec.elicit, undefined);
      const inputRequests = Object.assign({}, ...missing.map((key) => asks[key]!.ask().inputRequests)) as InputRequiredReply['inputRequests'];
      return inputRequiredResult(inputRequiredReply(inputRequests), binding);
    }
    const base = requestContext(ctx, ctx.mcpReq.signal, notifier, state);
    const owner = principalKey(ctx);
    const record = await taskRunner!.start({
      toolName: name,
      ...(owner !== '' ? { owner } : {}),
      settings: task,
      inputResponses: ctx.mcpReq.inputResponses,
      requestState: state,
      step: async (round) => {
        const abort = new AbortController();
        round.signal.addEventListener('abort', () => abort.abort(round.signal.reason), { once: true });
        const context: ToolContext<Record<string, unknown>> = {
          ...base,
          signal: abort.signal,
          inputResponses: round.inputResponses,
          requestState: round.requestState,
          elicit: buildElicit(tool.spec.elicit, round.inputResponses as Record<string, unknown> | undefined),
          // Progress inside a task is the task's statusMessage (SEP-2663 sends no progress for tasks).
          progress: (progress, total, message) => round.statusMessage(message ?? (total !== undefined ? `${progress}/${total}` : `${progress}`)),
        };
        const out = await runTool(tool, name, input, context, abort, server);
        return isInputRequiredReply(out)
          ? { kind: 'input', inputRequests: out.inputRequests, ...(out.requestState !== undefined ? { requestState: out.requestState } : {}) }
          : { kind: 'result', result: out as Record<string, unknown> };
      },
    });
    throw new TaskCreated(createTaskResult(record));
  }

  async function readResource(uri: string, ctx: ServerContext, skills?: SkillResources): Promise<ReadResourceResult | ReturnType<typeof inputRequired>> {
    const app = apps.get(uri);
    if (app !== undefined) return appContents(app, def.listCache);
    const fixed = resources.get(uri);
    const skillFile = fixed === undefined ? skills?.read(uri, ctx) : undefined;
    if (skillFile !== undefined) return skillFile;
    let out: unknown;
    let mimeType: string | undefined;
    let cache: { ttlMs: number; cacheScope: 'public' | 'private' } | undefined;
    const binding = bindingOf('resources/read', uri, {}, principalKey(ctx));
    const state = await openState(ctx, binding);
    try {
      if (fixed !== undefined) {
        mimeType = fixed.definition.mimeType;
        cache = fixed.cache;
        out = await handler(fixed.method)(requestContext(ctx, ctx.mcpReq.signal, notifier, state));
      } else {
        const match = templates.map((t) => ({ t, vars: t.match(uri) })).find((m) => m.vars !== null);
        if (match === undefined) throw new ResourceNotFoundError(uri);
        // R3: a value that leaves its segment (traversal, "/" in a single segment, NUL, backslash) never reaches the handler.
        const unsafe = templateValueProblem(match.t.spec.definition.uriTemplate, match.vars!);
        if (unsafe !== undefined) throw new ProtocolError(INVALID_PARAMS, `Invalid resource URI: ${unsafe}`, { uri });
        mimeType = match.t.spec.definition.mimeType;
        cache = match.t.spec.cache;
        out = await handler(match.t.spec.method)(match.vars, requestContext(ctx, ctx.mcpReq.signal, notifier, state));
      }
    } catch (e) {
      throw internal(e, `resource ${uri}`, `Reading ${uri} failed`);
    }
    if (isInputRequiredReply(out)) return inputRequiredResult(out, binding);
    let contents: ReadResourceResult['contents'];
    try {
      contents = toContents(out as ResourceReply, uri, mimeType);
    } catch (e) {
      throw internal(e, `resource ${uri}`, `Reading ${uri} failed`); // a reply whose getters throw
    }
    if (options.maxResponseBytes !== undefined && exceedsJsonSize(contents, options.maxResponseBytes)) {
      throw internal(new Error(`contents exceed maxResponseBytes (${options.maxResponseBytes})`), `resource ${uri}`, `Reading ${uri} failed: the contents are larger than this server sends`);
    }
    return { contents, ...(cache ?? {}) };
  }

  async function getPrompt(name: string, args: Record<string, string> | undefined, ctx: ServerContext): Promise<GetPromptResult | ReturnType<typeof inputRequired>> {
    const prompt = prompts.get(name);
    if (prompt === undefined) throw new ProtocolError(INVALID_PARAMS, `Unknown prompt: ${name}`);
    const given = args ?? {};
    for (const a of prompt.definition.arguments ?? []) {
      if (a.required && (!Object.hasOwn(given, a.name) || typeof given[a.name] !== 'string')) throw new ProtocolError(INVALID_PARAMS, `Missing required argument "${a.name}" for prompt ${name}`);
    }
    const binding = bindingOf('prompts/get', name, given, principalKey(ctx));
    const state = await openState(ctx, binding);
    let out: unknown;
    try {
      out = await handler(prompt.method)(given, requestContext(ctx, ctx.mcpReq.signal, notifier, state));
    } catch (e) {
      throw internal(e, `prompt ${name}`, `Prompt ${name} failed`);
    }
    if (isInputRequiredReply(out)) return inputRequiredResult(out, binding);
    try {
      return toPromptResult(out as PromptReply, prompt.definition.description);
    } catch (e) {
      throw internal(e, `prompt ${name}`, `Prompt ${name} failed`);
    }
  }

  /** The caller's tools when hideForbiddenTools is on (pages built per scope set, reused). */
  const pagesByScopes = new Map<string, Pages<ToolSpec['definition']>>();
  const toolPages = (ctx: ServerContext): Pages<ToolSpec['definition']> => {
    const principal = options.hideForbiddenTools ? principalOf(ctx.http?.authInfo) : undefined;
    if (principal === undefined) return pages.tools;
    const key = [...principal.scopes].sort().join(' ');
    let p = pagesByScopes.get(key);
    if (p === undefined) {
      p = paginate(def.tools.filter((t) => missingScopes(t.scopes ?? [], principal.scopes).length === 0).map((t) => t.definition), pageSize);
      if (pagesByScopes.size < 1000) pagesByScopes.set(key, p);
    }
    return p;
  };

  const build = () => {
    const serverOptions = {
      // The tasks extension is announced in server/discover under `extensions` (never a `tasks` capability).
      capabilities: taskRunner === undefined ? def.capabilities : { ...def.capabilities, extensions: { ...(def.capabilities as { extensions?: object }).extensions, [TASKS_EXTENSION]: {} } },
      ...(def.instructions !== undefined ? { instructions: def.instructions } : {}),
      cacheHints,
    };
    // With skills the extension attaches first; the handlers below then replace the McpServer's resources ones.
    const withSkills = options.skills !== undefined ? serverWithSkills(def.info, serverOptions, options.skills) : undefined;
    // The McpServer built that Server itself: give it TaskAwareServer's tools/call wrapping before any
    // handler is registered (the subclass only overrides a method and holds no state of its own).
    if (withSkills !== undefined) Object.setPrototypeOf(withSkills.server, TaskAwareServer.prototype);
    const server = withSkills?.server ?? new TaskAwareServer(def.info, serverOptions);
    const skills = withSkills?.resources;
    if (def.capabilities.tools) {
      server.setRequestHandler('tools/list', (req, ctx) => page(toolPages(ctx), req.params?.cursor, (items) => ({ tools: items })));
      server.setRequestHandler('tools/call', (req, ctx) => {
        // The fast path ran the tool already and hands its result to the SDK for encoding (fast-path.ts).
        const pre = takePrecomputed(ctx);
        if (pre === undefined) return callTool(req.params.name, req.params.arguments, ctx, server) as never;
        return (isResultOf(pre, 'input_required') ? pre : server.projectCallToolResult(pre as CallToolResult, tools.get(req.params.name)?.spec.definition.outputSchema)) as never;
      });
      if (taskRunner !== undefined) {
        registerTaskMethods(server, {
          store: taskRunner.store,
          ownerOf: principalKey,
          answerProblem: (toolName, responses) => {
            const tool = tools.get(toolName);
            return tool === undefined ? undefined : answerProblem(tool, responses);
          },
        });
      }
    }
    if (def.capabilities.resources || skills !== undefined) {
      // Skill resources follow the spec's, paged together (the catalog can change on reload()).
      const listed = async (ctx: ServerContext) => (skills === undefined ? pages.resources : paginate([...listedResources, ...(await skills.list(ctx))], pageSize));
      server.setRequestHandler('resources/list', async (req, ctx) => page(await listed(ctx), req.params?.cursor, (items) => ({ resources: items })));
      server.setRequestHandler('resources/templates/list', (req) => page(pages.resourceTemplates, req.params?.cursor, (items) => ({ resourceTemplates: items })));
      server.setRequestHandler('resources/read', (req, ctx) => readResource(req.params.uri, ctx, skills) as never);
    }
    if (def.capabilities.prompts) {
      server.setRequestHandler('prompts/list', (req) => page(pages.prompts, req.params?.cursor, (items) => ({ prompts: items })));
      server.setRequestHandler('prompts/get', (req, ctx) => getPrompt(req.params.name, req.params.arguments, ctx) as never);
    }
    if (def.capabilities.completions) {
      server.setRequestHandler('completion/complete', async (req, ctx) => {
        const complete = handlers.complete;
        let values: string[] = [];
        try {
          if (typeof complete === 'function') values = (await complete.call(handlers, req.params, requestContext(ctx, ctx.mcpReq.signal, notifier, undefined))) as string[];
        } catch (e) {
          throw internal(e, 'completion/complete', 'Completion failed');
        }
        return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
      });
    }
    return server;
  };
  // The fast path's stand-in for the SDK's 2026 projection: it serves only results the projection leaves alone.
  const identity = { projectCallToolResult: (r: CallToolResult) => r } as unknown as Pick<Server, 'projectCallToolResult'>;
  const fast: FastServerHooks = {
    serverInfo: def.info,
    eligible: (name) => {
      const t = tools.get(name);
      return t !== undefined && fastEligibleTool(t.spec);
    },
    callTool: (name, args, ctx) => callTool(name, args, ctx, identity) as Promise<unknown>,
  };
  return Object.assign(build, { fast });
}

function isResultOf(value: unknown, resultType: string): boolean {
  return typeof value === 'object' && value !== null && (value as { resultType?: unknown }).resultType === resultType;
}

/**
 * MR12: answers to the tool's own `elicit` keys are client data; a malformed one (unknown action, accepted
 * form content that does not match the spec's schema — `{"confirm": "false"}` for a boolean) is a
 * JSON-RPC -32602 before the handler runs, so `ctx.elicit.<key>.response` is always what its type says.
 * Keys the tool did not declare are left alone (handlers read them raw from `ctx.inputResponses`).
 */
function answerProblem(tool: PreparedTool, responses: Record<string, unknown> | undefined): { key: string; message: string } | undefined {
  if (responses === undefined) return undefined;
  for (const [key, spec] of Object.entries(tool.spec.elicit)) {
    if (!Object.hasOwn(responses, key)) continue;
    const answer = responses[key];
    const action = typeof answer === 'object' && answer !== null && !Array.isArray(answer) ? (answer as { action?: unknown }).action : undefined;
    if (action !== 'accept' && action !== 'decline' && action !== 'cancel') {
      return { key, message: `Invalid input response "${key}": action must be "accept", "decline" or "cancel"` };
    }
    if (action !== 'accept' || spec.mode !== 'form') continue;
    const content = (answer as { content?: unknown }).content ?? {};
    const invalid = tool.validateAnswers.get(key)?.(content);
    if (invalid !== undefined) return { key, message: `Invalid input response "${key}": ${invalid}` };
  }
  return undefined;
}

/** What a thrown value is, without trusting it: a Proxy or a hostile getter must not throw from here. */
function classify(e: unknown): { kind: 'timeout' | 'protocol' | 'other' } | { kind: 'public'; message: string } {
  try {
    if (e instanceof ToolTimeout) return { kind: 'timeout' };
    if (e instanceof ProtocolError) return { kind: 'protocol' };
    if (e instanceof PublicError) {
      const message: unknown = e.message; // read once: a getter could answer differently the second time
      if (typeof message === 'string') return { kind: 'public', message };
    }
  } catch {
    // instanceof on a Proxy runs its getPrototypeOf trap; a message getter may throw
  }
  return { kind: 'other' };
}

/** For logs: the stack or the text of any thrown value, even one whose String() or stack getter throws. */
function describeError(e: unknown): string {
  try {
    if (e instanceof Error) return String(e.stack ?? e.message);
    return String(e);
  } catch {
    try {
      return `unprintable thrown value (${Object.prototype.toString.call(e)})`;
    } catch {
      return 'unprintable thrown value';
    }
  }
}

class ToolTimeout extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

/** `signal` as a function: read when the handler reads ctx.signal (see callTool). */
function requestContext(ctx: ServerContext, signal: AbortSignal | (() => AbortSignal), notify: ChangeNotifier, requestState: string | undefined): RequestContext {
  const http = (ctx as { http?: { req?: Request } }).http;
  // The fast path has no Web Request until a handler asks for one (it is built on first read).
  const lazy = http !== undefined && typeof Object.getOwnPropertyDescriptor(http, 'req')?.get === 'function';
  const req = lazy ? undefined : http?.req;
  const auth = principalOf(ctx.http?.authInfo);
  const context: RequestContext = {
    get signal(): AbortSignal {
      return typeof signal === 'function' ? signal() : signal;
    },
    requestId: ctx.mcpReq.id,
    meta: (ctx.mcpReq._meta ?? {}) as Record<string, unknown>,
    ...(req !== undefined ? { httpRequest: req } : {}),
    // The SDK types the envelope as {}: the key is the spec's, the value a ClientCapabilities object.
    clientCapabilities: ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/clientCapabilities'] ?? {}) as Record<string, unknown>,
    inputResponses: ctx.mcpReq.inputResponses,
    requestState,
    inputRequired: inputRequiredReply,
    notify,
    ...(auth !== undefined ? { auth } : {}),
  };
  if (lazy) Object.defineProperty(context, 'httpRequest', { enumerable: true, configurable: true, get: () => http!.req });
  return context;
}

/** Who a requestState is bound to (MR6: state that influences authorization binds the principal). */
function principalKey(ctx: ServerContext): string {
  return principalKeyOf(principalOf(ctx.http?.authInfo));
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

/** A view's HTML, embedded at generate time: the same `_meta.ui` as its list entry (hosts read it here first). */
function appContents(app: AppSpec, cache: { ttlMs: number; cacheScope: 'public' | 'private' }): ReadResourceResult {
  const { uri, mimeType, _meta } = app.definition;
  return { contents: [{ uri, ...(mimeType !== undefined ? { mimeType } : {}), text: app.html, ...(_meta !== undefined ? { _meta } : {}) }], ...cache };
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
