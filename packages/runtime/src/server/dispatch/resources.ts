// resources/read of fixed resources, resource templates (their values checked before the handler sees
// them: R3), MCP Apps views and skill files; the list and templates/list pages.
import { inputRequired, ProtocolError, ResourceNotFoundError, type ReadResourceResult, type ServerContext } from '@modelcontextprotocol/server';
import { matchUriTemplate, templateValueProblem } from '../../shared/uri-template.js';
import type { AppSpec } from '../core/definition.js';
import { isInputRequiredReply, type ResourceReply } from '../core/replies.js';
import { exceedsJsonSize } from '../core/response-size.js';
import type { SkillResources } from '../extensions/skills.js';
import { bindingOf } from '../scale/request-state.js';
import { INVALID_PARAMS } from './errors.js';
import { handlerOf, type Dispatch } from './options.js';
import { requestContext, principalKey } from './request-context.js';

type Cache = { ttlMs: number; cacheScope: 'public' | 'private' };
export type ReadResource = (uri: string, ctx: ServerContext, skills?: SkillResources) => Promise<ReadResourceResult | ReturnType<typeof inputRequired>>;

export function resourceReader(d: Dispatch): ReadResource {
  const { def } = d;
  const resources = new Map(def.resources.map((r) => [r.definition.uri, r]));
  const apps = new Map((def.apps ?? []).map((a) => [a.definition.uri, a]));
  const templates = def.resourceTemplates.map((t) => ({ spec: t, match: (uri: string) => matchUriTemplate(t.definition.uriTemplate, uri) }));
  const failed = (e: unknown, uri: string) => d.internal(e, `resource ${uri}`, `Reading ${uri} failed`);
  /** The handler's reply for `uri`, with the mimeType and cache hint of the resource or template it matched. */
  const run = async (uri: string, ctx: ServerContext, state: string | undefined): Promise<{ out: unknown; mimeType?: string | undefined; cache?: Cache | undefined }> => {
    const fixed = resources.get(uri);
    const context = () => requestContext(ctx, ctx.mcpReq.signal, d.notifier, state);
    if (fixed !== undefined) return { mimeType: fixed.definition.mimeType, cache: fixed.cache, out: await handlerOf(d.handlers, fixed.method)(context()) };
    const match = templates.map((t) => ({ t, vars: t.match(uri) })).find((m) => m.vars !== null);
    if (match === undefined) throw new ResourceNotFoundError(uri);
    // R3: a value that leaves its segment (traversal, "/" in a single segment, NUL, backslash) never reaches the handler.
    const unsafe = templateValueProblem(match.t.spec.definition.uriTemplate, match.vars!);
    if (unsafe !== undefined) throw new ProtocolError(INVALID_PARAMS, `Invalid resource URI: ${unsafe}`, { uri });
    const out = await handlerOf(d.handlers, match.t.spec.method)(match.vars, context());
    return { mimeType: match.t.spec.definition.mimeType, cache: match.t.spec.cache, out };
  };
  return async (uri, ctx, skills) => {
    const app = apps.get(uri);
    if (app !== undefined) return appContents(app, def.listCache);
    const skillFile = resources.has(uri) ? undefined : skills?.read(uri, ctx);
    if (skillFile !== undefined) return skillFile;
    const binding = bindingOf('resources/read', uri, {}, principalKey(ctx));
    const state = await d.openState(ctx, binding);
    let got: Awaited<ReturnType<typeof run>>;
    try {
      got = await run(uri, ctx, state);
    } catch (e) {
      throw failed(e, uri);
    }
    if (isInputRequiredReply(got.out)) return d.inputRequiredResult(got.out, binding);
    let contents: ReadResourceResult['contents'];
    try {
      contents = toContents(got.out as ResourceReply, uri, got.mimeType);
    } catch (e) {
      throw failed(e, uri); // a reply whose getters throw
    }
    const max = d.options.maxResponseBytes;
    if (max !== undefined && exceedsJsonSize(contents, max)) {
      throw d.internal(new Error(`contents exceed maxResponseBytes (${max})`), `resource ${uri}`, `Reading ${uri} failed: the contents are larger than this server sends`);
    }
    return { contents, ...(got.cache ?? {}) };
  };
}

function toContents(out: ResourceReply, uri: string, mimeType: string | undefined): ReadResourceResult['contents'] {
  const mt = mimeType !== undefined ? { mimeType } : {};
  if (typeof out === 'string') return [{ uri, ...mt, text: out }];
  if (out instanceof Uint8Array) return [{ uri, ...mt, blob: Buffer.from(out).toString('base64') }];
  if (Array.isArray(out)) return out;
  return (out as { contents: ReadResourceResult['contents'] }).contents;
}

/** A view's HTML, embedded at generate time: the same `_meta.ui` as its list entry (hosts read it here first). */
function appContents(app: AppSpec, cache: Cache): ReadResourceResult {
  const { uri, mimeType, _meta } = app.definition;
  return { contents: [{ uri, ...(mimeType !== undefined ? { mimeType } : {}), text: app.html, ...(_meta !== undefined ? { _meta } : {}) }], ...cache };
}
