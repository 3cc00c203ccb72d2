import { createHash } from 'node:crypto';
import { elicitContentType, pascalCase, serverFolder, promptMethodName, resourceMethodName, toolMethodName, typeName } from '../common/names.js';
import { parseUriTemplate } from '@mcpgen/runtime/shared/uri-template';
import { parseRate } from '@mcpgen/runtime/shared/rate';
import { DEFAULT_TASK_POLL_INTERVAL_MS, DEFAULT_TASK_TTL_MS } from '../common/task-defaults.js';
import type { JsonObjectSchema, JsonSchema, RawAuth, RawCacheHint, RawSpecFile, RawTool } from '../validate/spec-types.js';
import type { SkillFile } from '../validate/skills.js';
import type { SpecView } from '../validate/view.js';
import { shapeFacts, type ShapeFacts } from './shape-facts.js';
import { toolModelCached } from './tool-cache.js';
import { httpBindingModel, upstreamModel } from './http.js';
import { promptExamples, toolExamples } from './examples.js';
import type { AppModel, AuthModel, CacheHintModel, CapabilitiesModel, RateLimitsModel, ServerModel, SkillFileModel, TaskModel, ToolModel, ToolsetModel } from './ir.js';

/** Defaults when the spec gives no `cache:`: list answers come from the spec, so they are the same for everyone. */
export const DEFAULT_LIST_CACHE: CacheHintModel = { ttlMs: 0, cacheScope: 'public' };

export function specHash(texts: readonly string[]): string {
  const h = createHash('sha256');
  for (const t of texts) h.update(t).update('\0');
  return h.digest('hex');
}

/** The IR of one validated server spec. Deterministic: same spec, same model, deeply frozen. */
export function buildModel(view: SpecView, skills?: readonly SkillFile[]): ServerModel {
  const spec = view.spec;
  const server = spec.server!;
  const defs = new Map<string, JsonSchema>();
  for (const d of view.defs) defs.set(String(d.path[d.path.length - 1]), d.value);
  const facts = shapeFacts(defs);
  const toolModel = toolModelCached(defs, (tool) => buildTool(tool, facts));
  const tools = view.tools.map(({ value }) => toolModel(value));
  const resources = view.resources.map(({ value: r }) => ({
    kind: 'resource' as const,
    label: `resource ${JSON.stringify(r.name)}`,
    uri: r.uri,
    name: r.name,
    ...opt('title', r.title),
    ...opt('description', r.description),
    ...opt('mimeType', r.mimeType),
    ...opt('size', r.size),
    icons: r.icons ?? [],
    ...opt('meta', r._meta),
    method: resourceMethodName(r.name),
    ...opt('cache', cacheHint(r.cache, spec.cache)),
    scopes: r.scopes ?? [],
  }));
  const resourceTemplates = view.resourceTemplates.map(({ value: t }) => {
    const parsed = parseUriTemplate(t.uriTemplate);
    return {
      kind: 'resourceTemplate' as const,
      label: `resource template ${JSON.stringify(t.name)}`,
      uriTemplate: t.uriTemplate,
      name: t.name,
      ...opt('title', t.title),
      ...opt('description', t.description),
      ...opt('mimeType', t.mimeType),
      icons: t.icons ?? [],
      ...opt('meta', t._meta),
      method: resourceMethodName(t.name),
      variablesType: typeName(t.name, 'Variables'),
      variables: parsed.ok ? parsed.variables : [],
      ...opt('cache', cacheHint(t.cache, spec.cache)),
      scopes: t.scopes ?? [],
    };
  });
  const prompts = view.prompts.map(({ value: p }) => ({
    kind: 'prompt' as const,
    label: `prompt ${JSON.stringify(p.name)}`,
    name: p.name,
    ...opt('title', p.title),
    ...opt('description', p.description),
    icons: p.icons ?? [],
    ...opt('meta', p._meta),
    method: promptMethodName(p.name),
    argsType: typeName(p.name, 'PromptArgs'),
    arguments: (p.arguments ?? []).map((a) => ({ name: a.name, ...opt('title', a.title), ...opt('description', a.description), required: a.required ?? false, ...opt('requiredWritten', a.required) })),
    scopes: p.scopes ?? [],
    examples: promptExamples(p.examples),
  }));
  const apps = buildApps(view);
  const model: ServerModel = {
    kind: 'server',
    label: `server ${JSON.stringify(server.name)}`,
    specFile: view.root.file,
    // The views' HTML is part of what generate reads: a changed file changes the banner's key too.
    specHash: specHash([...view.files.map((f) => f.text), ...apps.map((a) => a.html)]),
    name: server.name,
    folder: serverFolder(server.name),
    version: server.version,
    ...opt('title', server.title),
    ...opt('description', server.description),
    ...opt('instructions', server.instructions),
    ...opt('websiteUrl', server.websiteUrl),
    icons: server.icons ?? [],
    ...opt('meta', server._meta),
    typeStem: pascalCase(server.name),
    protocolVersion: spec.protocol?.version ?? '2026-07-28',
    legacy: spec.protocol?.legacy ?? true,
    capabilities: deriveCapabilities(view, tools.length, resources.length + resourceTemplates.length + apps.length, prompts.length),
    listCache: cacheHint(spec.cache, undefined) ?? DEFAULT_LIST_CACHE,
    tools,
    resources,
    resourceTemplates,
    prompts,
    defs: view.defs.map((d) => {
      const name = String(d.path[d.path.length - 1]);
      return { kind: 'def' as const, label: `$defs ${JSON.stringify(name)}`, name, typeName: typeName(name), schema: d.value };
    }),
    ...opt('auth', authModel(spec.auth)),
    apps,
    ...opt('skills', skills?.map(skillFileModel)),
    toolsets: toolsetModels(spec.toolsets),
    ...opt('rateLimits', rateLimitsModel(spec.rateLimit, view.tools.map((t) => t.value))),
    // Without `initial`: the toolsets marked default (none when none is: with discovery each caller starts small).
    ...opt('discovery', spec.discovery === undefined ? undefined : { initial: spec.discovery.initial ?? Object.entries(spec.toolsets ?? {}).filter(([, t]) => t.default === true).map(([n]) => n) }),
    ...opt('upstream', upstreamModel(view, server.name)),
  };
  return deepFreeze(model);
}

/** Views whose HTML the loader read; a validated spec has one for every `apps` entry. */
function buildApps(view: SpecView): AppModel[] {
  return view.apps.flatMap(({ value: a, path }) => {
    const file = view.appFiles.get(Number(path[1]));
    if (file === undefined || !('text' in file)) return [];
    return [{
      kind: 'app' as const,
      label: `app ${JSON.stringify(a.uri)}`,
      uri: a.uri,
      name: a.name,
      ...opt('title', a.title),
      ...opt('description', a.description),
      html: file.text,
      htmlFile: a.html,
      ...opt('csp', a.csp),
      permissions: a.permissions ?? [],
      ...opt('domain', a.domain),
      ...opt('prefersBorder', a.prefersBorder),
    }];
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Text when the bytes are UTF-8 (kept byte for byte, BOM included: the digest covers the bytes), else base64. */
function skillFileModel(file: SkillFile): SkillFileModel {
  try {
    return { path: file.path, text: utf8.decode(file.bytes) };
  } catch {
    return { path: file.path, base64: Buffer.from(file.bytes).toString('base64') };
  }
}

function authModel(auth: RawAuth | undefined): AuthModel | undefined {
  if (auth === undefined) return undefined;
  return {
    authorizationServers: auth.authorizationServers ?? [],
    ...opt('resource', auth.resource),
    scopes: Object.entries(auth.scopes ?? {}).map(([name, description]) => ({ name, description })),
    requiredScopes: auth.requiredScopes ?? [],
    ...opt('resourceName', auth.resourceName),
    ...opt('documentation', auth.documentation),
  };
}

function buildTool(t: RawTool, facts: ShapeFacts): ToolModel {
  const written = t.input ?? { type: 'object', additionalProperties: false };
  const input = facts.bundle(written);
  const output = t.output === undefined ? undefined : objectTyped(facts.bundle(t.output));
  return {
    kind: 'tool',
    label: `tool ${JSON.stringify(t.name)}`,
    name: t.name,
    ...opt('title', t.title),
    ...opt('description', t.description),
    method: toolMethodName(t.name),
    inputType: typeName(t.name, 'Input'),
    argumentsType: typeName(t.name, 'Arguments'),
    ...opt('outputType', output === undefined ? undefined : typeName(t.name, 'Output')),
    inputSchema: input,
    ...opt('outputSchema', output),
    ...opt('annotations', t.annotations),
    icons: t.icons ?? [],
    ...opt('meta', t._meta),
    headers: facts.headers(written),
    elicit: Object.entries(t.elicit ?? {}).map(([key, e]) => ({
      key,
      mode: e.mode ?? 'form',
      message: e.message,
      ...opt('schema', e.schema),
      ...opt('url', e.url),
      ...opt('contentType', (e.mode ?? 'form') === 'form' ? elicitContentType(t.name, key) : undefined),
    })),
    progress: t.progress ?? false,
    ...opt('timeoutMs', t.timeoutMs),
    scopes: t.scopes ?? [],
    ...opt('ui', t.ui === undefined ? undefined : typeof t.ui === 'string' ? { resourceUri: t.ui } : { resourceUri: t.ui.resource, ...opt('visibility', t.ui.visibility) }),
    ...opt('task', taskOf(t.task)),
    ...opt('http', httpBindingModel(t)),
    examples: toolExamples(t.examples),
  };
}

/**
 * The output root as every client gets it: `type: "object"` written out. The SDK wraps a root without it
 * (a `$ref` to an object, an `allOf`) as `{"result": …}` for 2025-era clients only; MCPG042 refuses roots
 * that are not objects, so stating the type changes no verdict.
 */
function objectTyped(schema: JsonObjectSchema): JsonObjectSchema {
  if (schema.type === 'object') return schema;
  const { type: _type, ...rest } = schema;
  return { type: 'object', ...rest };
}

function taskOf(raw: RawTool['task']): TaskModel | undefined {
  const settings = typeof raw === 'string' ? { support: raw } : raw;
  const support = settings === undefined ? 'never' : (settings.support ?? 'optional');
  if (settings === undefined || support === 'never') return undefined;
  return {
    support,
    ttlMs: settings.ttlMs ?? DEFAULT_TASK_TTL_MS,
    pollIntervalMs: settings.pollIntervalMs ?? DEFAULT_TASK_POLL_INTERVAL_MS,
    beforeTask: settings.beforeTask ?? [],
    ...(typeof settings === 'object' && 'retry' in settings && settings.retry !== undefined ? { retry: { max: settings.retry.max, backoffMs: settings.retry.backoffMs ?? 0 } } : {}),
  };
}

function deriveCapabilities(view: SpecView, tools: number, resources: number, prompts: number): CapabilitiesModel {
  const caps = view.spec.capabilities ?? {};
  const flags = <T extends object>(v: boolean | T | undefined): Partial<T> => (typeof v === 'object' ? v : {});
  const on = (v: unknown, count: number) => v === true || typeof v === 'object' || (v === undefined && count > 0);
  const t = flags(caps.tools);
  const r = flags(caps.resources);
  const p = flags(caps.prompts);
  return {
    ...(on(caps.tools, tools) ? { tools: { listChanged: t.listChanged ?? false } } : {}),
    ...(on(caps.resources, resources) ? { resources: { subscribe: r.subscribe ?? false, listChanged: r.listChanged ?? false } } : {}),
    ...(on(caps.prompts, prompts) ? { prompts: { listChanged: p.listChanged ?? false } } : {}),
    completions: caps.completions ?? false,
  };
}

function cacheHint(own: RawCacheHint | undefined, fallback: RawCacheHint | undefined): CacheHintModel | undefined {
  if (own === undefined && fallback === undefined) return undefined;
  return {
    ttlMs: own?.ttlMs ?? fallback?.ttlMs ?? DEFAULT_LIST_CACHE.ttlMs,
    cacheScope: own?.cacheScope ?? fallback?.cacheScope ?? DEFAULT_LIST_CACHE.cacheScope,
  };
}

/** `{key: value}` when value is defined, else `{}`: keeps optional fields absent (exactOptionalPropertyTypes). */
function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** `toolsets:` in spec order; with none marked `default`, every toolset is a default one. */
function toolsetModels(raw: RawSpecFile['toolsets']): ToolsetModel[] {
  const entries = Object.entries(raw ?? {});
  const anyDefault = entries.some(([, t]) => t.default === true);
  return entries.map(([name, t]) => ({
    kind: 'toolset' as const,
    label: `toolset ${JSON.stringify(name)}`,
    name,
    ...opt('description', t.description),
    default: anyDefault ? t.default === true : true,
    tools: t.tools ?? [],
    resources: t.resources ?? [],
    resourceTemplates: t.resourceTemplates ?? [],
    prompts: t.prompts ?? [],
  }));
}

/** The declared limits, parsed (validation refused any that is not a rate); undefined when none is declared. */
function rateLimitsModel(server: string | undefined, tools: readonly { readonly name: string; readonly rateLimit?: string }[]): RateLimitsModel | undefined {
  const serverRate = server === undefined ? undefined : parseRate(server);
  const perTool = tools.flatMap((t) => {
    const rate = t.rateLimit === undefined ? undefined : parseRate(t.rateLimit);
    return rate === undefined ? [] : [[t.name, rate] as const];
  });
  if (serverRate === undefined && perTool.length === 0) return undefined;
  return { ...(serverRate !== undefined ? { server: serverRate } : {}), ...(perTool.length > 0 ? { tools: Object.fromEntries(perTool) } : {}) };
}
