// Builds the SDK's low-level Server for one request (HTTP) or one connection (stdio) from a generated
// ServerDefinition and the user's handlers. Everything derived from the definition (lists, pages,
// validators, lookup maps) is built once in createServerFactory, so per-request cost does not grow
// with the number of tools. Each MCP area is its own file: tools.ts, resources.ts, prompts.ts, pages.ts.
import type { CallToolResult, Server } from '@modelcontextprotocol/server';
import type { ChangeNotifier } from '../core/context.js';
import type { ServerDefinition } from '../core/definition.js';
import { discoveryPlan, MemoryDiscoveryStore } from '../core/discovery.js';
import { exposedDefinition, exposedToolsets } from '../core/exposure.js';
import { createValidatorCompiler } from '../core/validators.js';
import { serverWithSkills } from '../extensions/skills.js';
import { MemoryTaskStore } from '../tasks/memory-store.js';
import { registerTaskMethods } from '../tasks/methods.js';
import { TaskRunner, type TaskRole, type TaskRunnerOptions } from '../tasks/runner.js';
import { TaskAwareServer } from '../tasks/server-class.js';
import { TASKS_EXTENSION } from '../tasks/wire.js';
import { errorReporting } from './errors.js';
import { fastEligibleTool, takePrecomputed, type FastServerHooks } from './fast-path-hooks.js';
import type { Dispatch, HandlerTable, ServerOptions } from './options.js';
import { page, paginate } from './pages.js';
import { complete, promptGetter } from './prompts.js';
import { principalKey, requestStateSeal } from './request-context.js';
import { resourceReader } from './resources.js';
import { changedToolList, discoveryGate, type DiscoveryGate } from './discovery.js';
import { answerProblem, prepareTools, toolCaller, toolListFor, toolRunner, type PreparedTool } from './tools.js';
import { carryServerMeta } from './server-meta.js';
import { taskResumer } from './tool-tasks.js';
import { createTelemetry } from '../ops/telemetry.js';
import type { RateLimiter } from '../ops/rate-limit.js';
import { checkLocalLimit, observer, protocolTracer, refusalObserver, type Observe, type ObserveRefusal, type TraceProtocol } from './tracing.js';

export type { AnyHandler, HandlerTable, ServerOptions } from './options.js';

const NO_LISTENERS: ChangeNotifier = { toolsChanged() {}, promptsChanged() {}, resourcesChanged() {}, resourceUpdated() {} };

/** What the transport knows of the instance it asks for: HTTP passes the SDK's era (stdio passes nothing). */
export interface InstanceContext {
  readonly era?: 'legacy' | 'modern';
}

export type ServerFactory = ((instance?: InstanceContext) => Server) & {
  /** What the HTTP fast path (transport/fast-path.ts) runs without the SDK's per-request pipeline. */
  readonly fast?: FastServerHooks;
  /** Shutdown of the tasks run here (tasks/runner.ts drain); absent when no tool runs as a task. */
  readonly drainTasks?: (graceMs: number) => Promise<void>;
  /** Makes this instance a task front or worker (tasks/runner.ts setRole; throws without a shared store). */
  readonly setTaskRole?: (role: TaskRole) => void;
  /** How many task handlers run here now (the running-tasks gauge). */
  readonly runningTasks?: () => number;
  /** The HTTP face's spans for what the SDK answers itself (initialize, ping…); absent without telemetry. */
  readonly traceProtocol?: TraceProtocol;
  /** The span and access-log line of a request an HTTP face refused (a rate limit); absent when both are off. */
  readonly observeRefusal?: ObserveRefusal;
};

export function createServerFactory(spec: ServerDefinition, handlers: HandlerTable, options: ServerOptions = {}): ServerFactory {
  // Everything below sees only what this deployment exposes (toolsets, read-only mode).
  const def = exposedDefinition(spec, options);
  const discovery = discoveryOf(def, options, spec);
  const d: Dispatch = {
    def,
    options,
    handlers,
    notifier: options.notifier ?? NO_LISTENERS,
    pageSize: Math.max(1, options.pageSize ?? 100),
    ...errorReporting(options.onHandlerError),
    ...requestStateSeal(options.requestStateKeys, options.requestStateTtlSeconds),
    ...(discovery !== undefined ? { discovery } : {}),
  };
  const tools = prepareTools(def.tools, createValidatorCompiler());
  // Built only when some tool can run as a task; shared by every per-request Server, like the store.
  const taskRunner = def.tools.some((t) => t.task !== undefined) ? new TaskRunner(options.taskStore ?? new MemoryTaskStore(), d.onError, taskRunnerOptions(options)) : undefined;
  // Spans only when an OpenTelemetry API was handed in: without it no wrapper exists at all.
  const telemetry = options.telemetry === undefined ? undefined : createTelemetry(options.telemetry, def.info);
  const observe = observer(telemetry, options.accessLog);
  const unlimited = toolCaller(d, tools, taskRunner);
  const limiter = options.rateLimiter;
  const untraced: typeof unlimited = limiter === undefined ? unlimited : async (name, args, ctx, server) => {
    await checkLocalLimit(limiter, ctx, name);
    return unlimited(name, args, ctx, server);
  };
  // Both the SDK's tools/call handler and the HTTP fast path call this: one span per call either way.
  const callTool: typeof untraced = observe === undefined ? untraced : (name, args, ctx, server) => observe('tools/call', ctx, { tool: name }, () => untraced(name, args, ctx, server) as Promise<unknown>) as never;
  const build = serverBuilder(d, tools, taskRunner, callTool, observe, limiter);
  // Lost tasks of re-runnable tools run again here; a Server built for the occasion projects their results.
  taskRunner?.setResume(taskResumer(d, tools, toolRunner(d), () => build()));
  // The fast path's stand-in for the SDK's 2026 projection: it serves only results the projection leaves alone.
  const identity = { projectCallToolResult: (r: CallToolResult) => r } as unknown as Pick<Server, 'projectCallToolResult'>;
  const fast: FastServerHooks = {
    serverInfo: def.info,
    eligible: (name) => {
      const t = tools.get(name);
      return t !== undefined && fastEligibleTool(t.spec);
    },
    callTool: (name, args, ctx) => callTool(name, args, ctx, identity) as Promise<unknown>,
    ...(discovery !== undefined ? { changingLists: new Set(['tools/list']) } : {}),
  };
  if (options.taskRole !== undefined) taskRunner?.setRole(options.taskRole, options.taskWorkerConcurrency);
  const tasks = taskRunner === undefined ? {} : { drainTasks: (graceMs: number) => taskRunner.drain(graceMs), setTaskRole: (role: TaskRole) => taskRunner.setRole(role, options.taskWorkerConcurrency), runningTasks: () => taskRunner.runningCount };
  const traceProtocol = protocolTracer(telemetry);
  const observeRefusal = refusalObserver(telemetry, options.accessLog);
  return Object.assign(build, { fast, ...tasks, ...(traceProtocol !== undefined ? { traceProtocol } : {}), ...(observeRefusal !== undefined ? { observeRefusal } : {}) });
}

/** One Server per request or connection, its handlers registered per capability the spec declares. */
function serverBuilder(d: Dispatch, tools: ReadonlyMap<string, PreparedTool>, taskRunner: TaskRunner | undefined, callTool: ReturnType<typeof toolCaller>, observe: Observe | undefined, limiter: RateLimiter | undefined): (instance?: InstanceContext) => Server {
  const { def, options, pageSize } = d;
  // The spec's resources and the MCP Apps views; skill files join them per request (the catalog may reload()).
  const listedResources = [...def.resources.map((r) => r.definition), ...(def.apps ?? []).map((a) => a.definition)];
  const pages = { resources: paginate(listedResources, pageSize), resourceTemplates: paginate(def.resourceTemplates.map((t) => t.definition), pageSize), prompts: paginate(def.prompts.map((p) => p.definition), pageSize) };
  const toolPages = toolListFor(d);
  const readResource = resourceReader(d);
  const getPrompt = promptGetter(d);
  const serverOptions = {
    // The tasks extension is announced in server/discover under `extensions` (never a `tasks` capability).
    capabilities: taskRunner === undefined ? def.capabilities : { ...def.capabilities, extensions: { ...(def.capabilities as { extensions?: object }).extensions, [TASKS_EXTENSION]: {} } },
    ...(def.instructions !== undefined ? { instructions: def.instructions } : {}),
    cacheHints: {
      'server/discover': def.listCache,
      // A filtered list depends on the caller's token: never let a shared cache hand it to someone else.
      // With discovery it also changes whenever the caller enables a toolset: never fresh for long.
      'tools/list': d.discovery !== undefined ? { ttlMs: 0, cacheScope: 'private' as const } : options.hideForbiddenTools && def.auth !== undefined ? { ...def.listCache, cacheScope: 'private' as const } : def.listCache,
      'resources/list': def.listCache,
      'resources/templates/list': def.listCache,
      'prompts/list': def.listCache,
    },
  };
  return (instance = {}) => {
    // With skills the extension attaches first; the handlers below then replace the McpServer's resources ones.
    const withSkills = options.skills !== undefined ? serverWithSkills(def.info, serverOptions, options.skills) : undefined;
    // The McpServer built that Server itself: give it TaskAwareServer's tools/call wrapping before any
    // handler is registered (the subclass only overrides a method and holds no state of its own).
    if (withSkills !== undefined) Object.setPrototypeOf(withSkills.server, TaskAwareServer.prototype);
    const server = withSkills?.server ?? new TaskAwareServer(def.info, serverOptions);
    if (def.meta !== undefined) carryServerMeta(server, def.meta);
    const skills = withSkills?.resources;
    // Registers a handler, inside its server span when telemetry is on (tools/call is traced in callTool).
    type Target = { tool?: string; prompt?: string; uri?: string };
    const on = (method: string, given: (req: any, ctx: any) => unknown, target: (params: any) => Target = () => ({})): void => {
      const handler = limiter === undefined ? given : async (req: any, ctx: any) => (await checkLocalLimit(limiter, ctx, undefined), given(req, ctx));
      const run = observe === undefined ? handler : (req: any, ctx: any) => observe(method, ctx, target(req.params ?? {}), async () => handler(req, ctx));
      server.setRequestHandler(method as never, run as never);
    };
    // A 2025-11-25 call over HTTP (served stateless: no stream of ours outlives the request) hears its own
    // enable_toolset / disable_toolset change on the call's response stream, before the result.
    const legacyCall = async (name: string, args: unknown, ctx: any) => {
      const result = await callTool(name, args as never, ctx, server);
      if (changedToolList(tools.get(name)?.spec.method, result)) await ctx.mcpReq.notify({ method: 'notifications/tools/list_changed' });
      return result;
    };
    if (def.capabilities.tools) {
      on('tools/list', async (req, ctx) => page(await toolPages(ctx), req.params?.cursor, (items) => ({ tools: items })));
      server.setRequestHandler('tools/call', (req, ctx) => {
        // The fast path ran the tool already and hands its result to the SDK for encoding (transport/fast-path.ts).
        const pre = takePrecomputed(ctx);
        if (pre === undefined && instance.era === 'legacy' && d.discovery !== undefined) return legacyCall(req.params.name, req.params.arguments, ctx) as never;
        if (pre === undefined) return callTool(req.params.name, req.params.arguments, ctx, server) as never;
        return (isResultOf(pre, 'input_required') ? pre : server.projectCallToolResult(pre as CallToolResult, tools.get(req.params.name)?.spec.definition.outputSchema)) as never;
      });
      if (taskRunner !== undefined) {
        const answers = (toolName: string, responses: Record<string, unknown> | undefined) => {
          const tool = tools.get(toolName);
          return tool === undefined ? undefined : answerProblem(tool, responses);
        };
        const hooks = { store: taskRunner.store, ownerOf: principalKey, answerProblem: answers };
        registerTaskMethods(server, observe === undefined ? hooks : { ...hooks, observe: (method, ctx, run) => observe(method, ctx, {}, run) });
      }
    }
    if (def.capabilities.resources || skills !== undefined) {
      // Skill resources follow the spec's, paged together (the catalog can change on reload()).
      const listed = async (ctx: Parameters<typeof readResource>[1]) => (skills === undefined ? pages.resources : paginate([...listedResources, ...(await skills.list(ctx))], pageSize));
      on('resources/list', async (req, ctx) => page(await listed(ctx), req.params?.cursor, (items) => ({ resources: items })));
      on('resources/templates/list', (req) => page(pages.resourceTemplates, req.params?.cursor, (items) => ({ resourceTemplates: items })));
      on('resources/read', (req, ctx) => readResource(req.params.uri, ctx, skills), (p: { uri?: unknown }) => (typeof p.uri === 'string' ? { uri: p.uri } : {}));
    }
    if (def.capabilities.prompts) {
      on('prompts/list', (req) => page(pages.prompts, req.params?.cursor, (items) => ({ prompts: items })));
      on('prompts/get', (req, ctx) => getPrompt(req.params.name, req.params.arguments, ctx), (p: { name?: unknown }) => (typeof p.name === 'string' ? { prompt: p.name } : {}));
    }
    if (def.capabilities.completions) on('completion/complete', (req, ctx) => complete(d, req.params, ctx));
    return server;
  };
}

/** The discovery gate of a spec with `discovery:`; enable/disable publish on the server's bus (every instance's listen streams). */
function discoveryOf(def: ServerDefinition, options: ServerOptions, spec: ServerDefinition): DiscoveryGate | undefined {
  const plan = discoveryPlan(def, exposedToolsets(spec, options));
  if (plan === undefined) return undefined;
  const bus = options.bus;
  const notifier = options.notifier;
  return discoveryGate(plan, options.discoveryStore ?? new MemoryDiscoveryStore(), (event) => (bus !== undefined ? bus.publish(event) : notifier?.toolsChanged()));
}

function isResultOf(value: unknown, resultType: string): boolean {
  return typeof value === 'object' && value !== null && (value as { resultType?: unknown }).resultType === resultType;
}

/** The runner's settings from the server options (only those given: the runner has the defaults). */
function taskRunnerOptions(options: ServerOptions): TaskRunnerOptions {
  return {
    ...(options.taskLeaseMs !== undefined ? { leaseMs: options.taskLeaseMs } : {}),
    ...(options.taskResultRetryMs !== undefined ? { resultRetryMs: options.taskResultRetryMs } : {}),
  };
}
