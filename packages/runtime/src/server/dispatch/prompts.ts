// prompts/get (required arguments checked before the handler runs) and completion/complete.
import { inputRequired, ProtocolError, type CompleteRequestParams, type GetPromptResult, type ServerContext } from '@modelcontextprotocol/server';
import { isInputRequiredReply, type PromptReply } from '../core/replies.js';
import { bindingOf } from '../scale/request-state.js';
import { INVALID_PARAMS } from './errors.js';
import { handlerOf, type Dispatch } from './options.js';
import { principalKey, requestContext } from './request-context.js';

export type GetPrompt = (name: string, args: Record<string, string> | undefined, ctx: ServerContext) => Promise<GetPromptResult | ReturnType<typeof inputRequired>>;

export function promptGetter(d: Dispatch): GetPrompt {
  const prompts = new Map(d.def.prompts.map((p) => [p.definition.name, p]));
  return async (name, args, ctx) => {
    const prompt = prompts.get(name);
    if (prompt === undefined) throw new ProtocolError(INVALID_PARAMS, `Unknown prompt: ${name}`);
    const given = args ?? {};
    for (const a of prompt.definition.arguments ?? []) {
      if (a.required && (!Object.hasOwn(given, a.name) || typeof given[a.name] !== 'string')) throw new ProtocolError(INVALID_PARAMS, `Missing required argument "${a.name}" for prompt ${name}`);
    }
    const binding = bindingOf('prompts/get', name, given, principalKey(ctx));
    const state = await d.openState(ctx, binding);
    let out: unknown;
    try {
      out = await handlerOf(d.handlers, prompt.method)(given, requestContext(ctx, ctx.mcpReq.signal, d.notifier, state));
    } catch (e) {
      throw d.internal(e, `prompt ${name}`, `Prompt ${name} failed`);
    }
    if (isInputRequiredReply(out)) return d.inputRequiredResult(out, binding);
    try {
      return toPromptResult(out as PromptReply, prompt.definition.description);
    } catch (e) {
      throw d.internal(e, `prompt ${name}`, `Prompt ${name} failed`);
    }
  };
}

function toPromptResult(out: PromptReply, description: string | undefined): GetPromptResult {
  const desc = description !== undefined ? { description } : {};
  if (typeof out === 'string') return { ...desc, messages: [{ role: 'user', content: { type: 'text', text: out } }] };
  if (Array.isArray(out)) return { ...desc, messages: [...out] };
  return out as GetPromptResult;
}

/** completion/complete: the user's `complete` handler (none: no values), at most 100 values sent. */
export async function complete(d: Dispatch, params: CompleteRequestParams, ctx: ServerContext) {
  const handler = d.handlers.complete;
  let values: string[] = [];
  try {
    if (typeof handler === 'function') values = (await handler.call(d.handlers, params, requestContext(ctx, ctx.mcpReq.signal, d.notifier, undefined))) as string[];
  } catch (e) {
    throw d.internal(e, 'completion/complete', 'Completion failed');
  }
  return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
}
