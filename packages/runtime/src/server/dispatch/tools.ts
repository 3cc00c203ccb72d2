// tools/list and tools/call: arguments checked against the input schema, elicitation answers checked
// (MR12), the handler run with its timeout, its reply turned into a CallToolResult and checked against
// the output schema; a task tool starts a task instead (tasks/runner.ts).
import { ProtocolError, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import { applyDefaults, defaultsPlan, type DefaultsPlan } from '../../shared/input-defaults.js';
import { missingScopes, principalOf } from '../auth/auth.js';
import { wantsArgsAsSent } from '../core/as-sent.js';
import { CANCEL, type Cancel, type Cancellable } from '../core/cancel.js';
import { buildElicit, type ToolContext } from '../core/context.js';
import type { ToolSpec } from '../core/definition.js';
import { isInputRequiredReply, isToolReply } from '../core/replies.js';
import { exceedsJsonSize } from '../core/response-size.js';
import type { Validator } from '../core/validators.js';
import { lazyBindingOf } from '../scale/request-state.js';
import { TaskStopped, type TaskRunner } from '../tasks/runner.js';
import { declaresTasks, missingTasksCapability } from '../tasks/wire.js';
import { classify, errorResult, INVALID_PARAMS, ToolTimeout } from './errors.js';
import { handlerOf, type Dispatch } from './options.js';
import { paginate, type Pages } from './pages.js';
import { principalKey, requestContext } from './request-context.js';
import { taskStarter } from './tool-tasks.js';
import type { Abort, CallResult, PreparedTool, Projector, RunTool } from './tool-types.js';

export type { PreparedTool } from './tool-types.js';


type Compile = (schema: Readonly<Record<string, unknown>>, dataVar?: string) => Validator;

/** Derive the defaults plan on first use, as validators compile (start-up stays fast with many tools). */
function defaultsOf(schema: Readonly<Record<string, unknown>>): (input: unknown) => unknown {
  let plan: DefaultsPlan | undefined | null = null;
  return (input) => applyDefaults(input, plan === null ? (plan = defaultsPlan(schema)) : plan);
}

/** Compile on first use: start-up stays fast with many tools, and each schema compiles once. */
function lazy(compile: Compile, schema: Readonly<Record<string, unknown>>, dataVar?: string): Validator {
  let v: Validator | undefined;
  return (value) => (v ??= compile(schema, dataVar))(value);
}

export function prepareTools(tools: readonly ToolSpec[], compile: Compile): Map<string, PreparedTool> {
  return new Map(
    tools.map((spec) => [
      spec.definition.name,
      {
        spec,
        validateInput: lazy(compile, spec.definition.inputSchema),
        validateOutput: spec.definition.outputSchema ? lazy(compile, spec.definition.outputSchema, 'result') : undefined,
        withDefaults: defaultsOf(spec.definition.inputSchema),
        validateAnswers: new Map(
          Object.entries(spec.elicit).flatMap(([key, e]) => (e.mode === 'form' && e.requestedSchema !== undefined ? [[key, lazy(compile, e.requestedSchema, 'content')] as const] : [])),
        ),
      },
    ]),
  );
}

/**
 * MR12: answers to the tool's own `elicit` keys are client data; a malformed one (unknown action, accepted
 * form content that does not match the spec's schema — `{"confirm": "false"}` for a boolean) is a
 * JSON-RPC -32602 before the handler runs, so `ctx.elicit.<key>.response` is always what its type says.
 * Keys the tool did not declare are left alone (handlers read them raw from `ctx.inputResponses`).
 */
export function answerProblem(tool: PreparedTool, responses: Record<string, unknown> | undefined): { key: string; message: string } | undefined {
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

export function toCallToolResult(out: unknown, hasOutputSchema: boolean): CallToolResult {
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

/** The caller's tools/list pages: all tools, or (hideForbiddenTools) those its scopes allow, built per scope set and reused. */
export function toolPagesFor(d: Dispatch): (ctx: ServerContext) => Pages<ToolSpec['definition']> {
  const all = paginate(d.def.tools.map((t) => t.definition), d.pageSize);
  const byScopes = new Map<string, Pages<ToolSpec['definition']>>();
  return (ctx) => {
    const principal = d.options.hideForbiddenTools ? principalOf(ctx.http?.authInfo) : undefined;
    if (principal === undefined) return all;
    const key = [...principal.scopes].sort().join(' ');
    let p = byScopes.get(key);
    if (p === undefined) {
      p = paginate(d.def.tools.filter((t) => missingScopes(t.scopes ?? [], principal.scopes).length === 0).map((t) => t.definition), d.pageSize);
      if (byScopes.size < 1000) byScopes.set(key, p);
    }
    return p;
  };
}

/** tools/list as the caller sees it: with dynamic discovery, only the tools its principal has enabled. */
export function toolListFor(d: Dispatch): (ctx: ServerContext) => Pages<ToolSpec['definition']> | Promise<Pages<ToolSpec['definition']>> {
  const pages = toolPagesFor(d);
  const gate = d.discovery;
  if (gate === undefined) return pages;
  return async (ctx) => {
    const visible = await gate.visible(ctx);
    return paginate(pages(ctx).pages.flat().filter((t) => visible.has(t.name)), d.pageSize);
  };
}

export type CallTool = (name: string, args: unknown, ctx: ServerContext, server: Projector) => Promise<CallResult>;

/** tools/call as one function of the factory's pieces (the SDK handler and the fast path both call it). */
export function toolCaller(d: Dispatch, tools: ReadonlyMap<string, PreparedTool>, taskRunner: TaskRunner | undefined): CallTool {
  const run = toolRunner(d);
  const startTask = taskStarter(d, run, taskRunner);
  return async (name, args, ctx, server) => {
    const tool = tools.get(name);
    // A tool of a toolset the caller has not enabled is as unknown as one that never existed.
    if (tool === undefined || (d.discovery !== undefined && !(await d.discovery.callable(name, ctx)))) throw new ProtocolError(INVALID_PARAMS, `Unknown tool: ${name}`);
    const input = args ?? {};
    const invalid = tool.validateInput(input);
    if (invalid !== undefined) return errorResult(`Invalid arguments for tool ${name}: ${invalid}`);
    const badAnswer = answerProblem(tool, ctx.mcpReq.inputResponses);
    if (badAnswer !== undefined) throw new ProtocolError(INVALID_PARAMS, badAnswer.message, { inputResponse: badAnswer.key });
    // Bound before the handler runs: a handler that changes its arguments must not change the binding.
    const binding = lazyBindingOf('tools/call', name, input, principalKey(ctx));
    // No turn for a request without state (nearly all).
    const opening = d.openState(ctx, binding);
    const state = opening === undefined ? undefined : await opening;
    const task = tool.spec.task;
    if (task !== undefined && taskRunner !== undefined) {
      // The server alone decides, per request: a task only for a client that declared the extension.
      if (declaresTasks(ctx)) return startTask(tool, name, input, task, ctx, server, binding, state);
      if (task.support === 'required') throw missingTasksCapability(`Tool ${name}`);
    }
    const own = (tool.spec.timeoutMs ?? d.options.toolTimeoutMs) === undefined ? undefined : new AbortController();
    const abort = abortOf(ctx, own);
    const onAbort = () => own!.abort(ctx.mcpReq.signal.reason);
    if (own !== undefined) ctx.mcpReq.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const out = await run(tool, name, input, toolContext(d, tool, ctx, abort, state), abort, server);
      return isInputRequiredReply(out) ? await d.inputRequiredResult(out, binding) : out;
    } finally {
      if (own !== undefined) ctx.mcpReq.signal.removeEventListener('abort', onAbort);
    }
  };
}

/**
 * Only a timeout aborts a tool apart from its request: without one the request's signal is the tool's
 * (an AbortController and a listener fewer per call; runTool never calls abort() then). A getter: the
 * fast path makes the request's AbortSignal only when something reads it.
 */
function abortOf(ctx: ServerContext, own: AbortController | undefined): Abort {
  return own ?? new RequestAbort(ctx);
}

/** A class, not a literal with a getter (docs/layout.md, "Per-request objects"). */
class RequestAbort implements Abort {
  constructor(private readonly ctx: ServerContext) {}
  get signal(): AbortSignal {
    return this.ctx.mcpReq.signal;
  }
  abort(): void {}
  /** The fast path's request hears its cancellation without a signal (core/cancel.ts). */
  [CANCEL](): Cancel | undefined {
    return (this.ctx.mcpReq as Cancellable)[CANCEL]?.();
  }
}

function toolContext(d: Dispatch, tool: PreparedTool, ctx: ServerContext, abort: Abort, state: string | undefined): ToolContext<Record<string, unknown>> {
  const progressToken = (ctx.mcpReq._meta as { progressToken?: string | number } | undefined)?.progressToken;
  let progressDropped = false;
  // Assigned onto, not spread: a spread would read the lazy httpRequest getter (the fast path's Web
  // Request, built only for a handler that reads it).
  return Object.assign(requestContext(ctx, () => abort.signal, d.notifier, state, abort as Cancellable), {
    elicit: buildElicit(tool.spec.elicit, ctx.mcpReq.inputResponses),
    async progress(progress: number, total?: number, message?: string) {
      if (progressToken === undefined || abort.signal.aborted) return;
      // Advisory (issue 25 item 12): a notification that cannot be sent is logged once, never thrown into
      // the handler — losing a progress line must not kill the work it reports on.
      await ctx.mcpReq
        .notify({
          method: 'notifications/progress',
          params: { progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) },
        })
        .catch((e: unknown) => {
          if (!progressDropped) d.onError(e, `tool ${tool.spec.definition.name}: progress dropped (later ones too, silently)`);
          progressDropped = true;
        });
    },
  });
}


/**
 * One run of a tool's handler: its reply as the CallToolResult to send, or the input it asks for.
 * ProtocolErrors propagate; every other failure is an `isError` result.
 */
export function toolRunner(d: Dispatch): RunTool {
  const { options, onError } = d;
  return async (tool, name, input, context, abort, server) => {
    const timeoutMs = tool.spec.timeoutMs ?? options.toolTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    try {
      // Defaults are filled in here, after validation and binding: both see the arguments as sent (and so
      // does a handler that asks for them, core/as-sent.ts: the HTTP proxy).
      const handler = d.discovery?.handlers[tool.spec.method] ?? handlerOf(d.handlers, tool.spec.method);
      const asSent = wantsArgsAsSent(d.discovery?.handlers[tool.spec.method] ?? d.handlers[tool.spec.method]);
      const run = Promise.resolve(handler(asSent ? input : tool.withDefaults(input), context));
      const out = timeoutMs === undefined ? await run : await Promise.race([run, new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          abort.abort(new Error('timeout'));
          reject(new ToolTimeout(timeoutMs));
        }, timeoutMs);
      })]);
      if (isInputRequiredReply(out)) return out;
      return checkedResult(d, tool, name, toCallToolResult(out, tool.spec.definition.outputSchema !== undefined), server);
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
  };
}

/** The result as sent: bounded in size, its structuredContent checked against the output schema. */
function checkedResult(d: Dispatch, tool: PreparedTool, name: string, result: CallToolResult, server: Projector): CallToolResult {
  const max = d.options.maxResponseBytes;
  if (max !== undefined && exceedsJsonSize(result, max)) {
    d.onError(new Error(`result exceeds maxResponseBytes (${max})`), `tool ${name}`);
    return errorResult(`Tool ${name} produced a result larger than this server sends (${max} bytes)`);
  }
  if (tool.validateOutput !== undefined && !result.isError) {
    const bad = tool.validateOutput(result.structuredContent);
    if (bad !== undefined) {
      d.onError(new Error(`structuredContent does not match the output schema: ${bad}`), `tool ${name}`);
      return errorResult(`Tool ${name} produced output that does not match its output schema`);
    }
  }
  return server.projectCallToolResult(result, tool.spec.definition.outputSchema);
}
