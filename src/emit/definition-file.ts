import type { FileSink } from './file-builder.js';
import { MemberCache, memberCachesEnabled } from './member-cache.js';
// The constants alone: @mcpgen/runtime/shared would also load ajv (the generator imports the runtime's
// ajv-free modules by their own subpaths).
import { UI_EXTENSION_ID, UI_LEGACY_RESOURCE_URI_KEY, UI_MIME_TYPE } from '@mcpgen/runtime/shared/mcp-apps';
import type { AppModel, AuthModel, DefModel, ServerModel, ToolModel, ToolsetModel } from '../model/ir.js';
import { isObjectSchema } from '../common/json-schema.js';
import { isIdentifierName } from '../common/names.js';

/** The wire form of a tool, as tools/list sends it (key order fixed for stable output). */
export function wireTool(tool: ToolModel): Record<string, unknown> {
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
    ...(tool.icons.length > 0 ? { icons: tool.icons } : {}),
    ...wireMeta(tool.meta, tool.ui !== undefined ? { ui: tool.ui, [UI_LEGACY_RESOURCE_URI_KEY]: tool.ui.resourceUri } : undefined),
  };
}

/** `_meta` as the spec wrote it, with the keys mcpgen derives (MCP Apps) over it; absent when both are. */
function wireMeta(written: Readonly<Record<string, unknown>> | undefined, derived: Record<string, unknown> | undefined): { _meta?: Record<string, unknown> } {
  if (written === undefined && derived === undefined) return {};
  return { _meta: { ...written, ...derived } };
}

/** An MCP Apps view as resources/list announces it and resources/read serves it (`_meta.ui` on both). */
export function appData(app: AppModel): Record<string, unknown> {
  const meta = compact({
    csp: app.csp === undefined ? undefined : compact({ ...app.csp }),
    permissions: app.permissions.length > 0 ? Object.fromEntries(app.permissions.map((p) => [p, {}])) : undefined,
    domain: app.domain,
    prefersBorder: app.prefersBorder,
  });
  return {
    definition: compact({ uri: app.uri, name: app.name, title: app.title, description: app.description, mimeType: UI_MIME_TYPE, _meta: Object.keys(meta).length > 0 ? { ui: meta } : undefined }),
    html: app.html,
  };
}

function compact<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0))) as Partial<T>;
}

/** The definition data handed to the runtime, built from the model only. */
export function definitionData(model: ServerModel): Record<string, unknown> {
  const caps = model.capabilities;
  return {
    ...compact({
    info: compact({ name: model.name, version: model.version, title: model.title, description: model.description, websiteUrl: model.websiteUrl, icons: model.icons }),
    instructions: model.instructions,
    meta: model.meta,
    capabilities: compact({
      tools: caps.tools ? (caps.tools.listChanged ? { listChanged: true } : {}) : undefined,
      resources: caps.resources ? compact({ subscribe: caps.resources.subscribe || undefined, listChanged: caps.resources.listChanged || undefined }) : undefined,
      prompts: caps.prompts ? (caps.prompts.listChanged ? { listChanged: true } : {}) : undefined,
      completions: caps.completions ? {} : undefined,
      extensions: model.apps.length > 0 ? { [UI_EXTENSION_ID]: {} } : undefined,
    }),
    listCache: model.listCache,
    }),
    tools: model.tools.map((t) => ({
      definition: wireTool(t),
      method: t.method,
      headers: t.headers,
      elicit: Object.fromEntries(t.elicit.map((e) => [e.key, compact({ mode: e.mode, message: e.message, requestedSchema: e.schema, url: e.url })])),
      ...(t.timeoutMs !== undefined ? { timeoutMs: t.timeoutMs } : {}),
      ...(t.scopes.length > 0 ? { scopes: t.scopes } : {}),
      ...(t.task !== undefined ? { task: { support: t.task.support, ttlMs: t.task.ttlMs, pollIntervalMs: t.task.pollIntervalMs, ...(t.task.beforeTask.length > 0 ? { beforeTask: t.task.beforeTask } : {}), ...(t.task.retry !== undefined ? { retry: t.task.retry } : {}) } } : {}),
    })),
    resources: model.resources.map((r) => compact({ definition: compact({ uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType, size: r.size, icons: r.icons, _meta: r.meta }), method: r.method, cache: r.cache, scopes: r.scopes })),
    resourceTemplates: model.resourceTemplates.map((t) => compact({ definition: compact({ uriTemplate: t.uriTemplate, name: t.name, title: t.title, description: t.description, mimeType: t.mimeType, icons: t.icons, _meta: t.meta }), method: t.method, cache: t.cache, scopes: t.scopes })),
    prompts: model.prompts.map((p) => compact({ definition: compact({ name: p.name, title: p.title, description: p.description, icons: p.icons, arguments: p.arguments.map((a) => compact({ name: a.name, title: a.title, description: a.description, required: a.requiredWritten })), _meta: p.meta }), method: p.method, scopes: p.scopes })),
    ...(model.auth !== undefined ? { auth: authData(model.auth) } : {}),
    ...(model.apps.length > 0 ? { apps: model.apps.map(appData) } : {}),
    ...(model.toolsets.length > 0 ? { toolsets: Object.fromEntries(model.toolsets.map((t) => [t.name, toolsetData(t)])) } : {}),
    ...(model.rateLimits !== undefined ? { rateLimits: model.rateLimits } : {}),
    ...(model.discovery !== undefined ? { discovery: { initial: [...model.discovery.initial] } } : {}),
  };
}

/** The runtime's ToolsetSpec: empty member lists left out. */
function toolsetData(t: ToolsetModel): Record<string, unknown> {
  return compact({ description: t.description, default: t.default, tools: t.tools, resources: t.resources, resourceTemplates: t.resourceTemplates, prompts: t.prompts });
}

/** The runtime's AuthSpec: scopes as a name → description map, optional parts only when given. */
function authData(auth: AuthModel): Record<string, unknown> {
  return {
    authorizationServers: auth.authorizationServers,
    ...(auth.resource !== undefined ? { resource: auth.resource } : {}),
    scopes: Object.fromEntries(auth.scopes.map((s) => [s.name, s.description])),
    requiredScopes: auth.requiredScopes,
    ...(auth.resourceName !== undefined ? { resourceName: auth.resourceName } : {}),
    ...(auth.documentation !== undefined ? { documentation: auth.documentation } : {}),
  };
}

/**
 * From this many tools on, definition.ts declares each tool as a const of the declared element type:
 * strict tsc reduces one array literal of ~1,000 differently shaped tools to a union and gives up
 * (TS2590, GitHub's REST description; tsc stops at about n² > 1,000,000 subtype checks, so past ~1,000
 * tools, and sooner when members hold unions of their own). Below it the file stays one literal, as before.
 */
export const LARGE_TOOL_LIST = 500;

/** definition.ts: every wire definition as data, emitted through JSON.stringify (all strings escaped). */
export function emitDefinition(model: ServerModel, file: FileSink): void {
  const data = definitionData(model);
  const shared = sharedDefs(model);
  const defRefs = new Map<object, string>([...shared].map(([schema, d]) => [schema, `defs${isIdentifierName(d.name) && d.name !== '__proto__' ? `.${d.name}` : `[${JSON.stringify(d.name)}]`}`]));
  const tools = data.tools as object[];
  const apart = tools.length >= LARGE_TOOL_LIST;
  file.addImportDeclaration({ moduleSpecifier: '@mcpgen/runtime/server', isTypeOnly: true, namedImports: ['ServerDefinition'] });
  // Printed as text so the JSON keeps its own indentation.
  file.addStatements([
    ...(shared.size > 0
      ? [`/** The spec's \`$defs\` the tools use, written once: tool schemas hold them by reference (tools/list sends each schema whole). */\nconst defs = ${jsonLiteral(Object.fromEntries([...shared.values()].map((d) => [d.name, d.schema])))};`]
      : []),
    ...(apart ? toolConsts(model, tools, defRefs) : []),
    `/** Everything the ${model.name} server announces, exactly as it goes on the wire. */\nexport const definition: ServerDefinition = ${jsonLiteral(data, apart ? new Map([...defRefs, ...tools.map((t, i) => [t, `tool${i}`] as const)]) : withToolTexts(model, data, defRefs))};`,
    // Typed through ServerDefinition: the element type is not exported by name, and a declaration emit of
    // an inferred type would have to name the runtime's internal path (TS2742 in a downstream package).
    "/** The tool definitions (tools/list), for clients: headers and output checks need no round trip. */\nexport const toolDefinitions: ServerDefinition['tools'][number]['definition'][] = definition.tools.map((t) => t.definition);",
  ]);
}

/** Each tool's entry of `definition.tools` as JSON text, by its IR object (--watch). */
const TOOL_ENTRIES = new MemberCache<ToolModel, string>();
/** Where `definition.tools` entries stand in definition.ts's JSON: data → `tools` → entry. */
const TOOL_ENTRY_INDENT = '    ';

/**
 * With --watch, `named` also holds each tool entry's data object with its text, made once per tool IR
 * object, so jsonLiteral writes an unchanged tool's entry as it is. The text is the one jsonLiteral
 * would write there, so the file is the same either way.
 */
function withToolTexts(model: ServerModel, data: Record<string, unknown>, defRefs: ReadonlyMap<object, string>): ReadonlyMap<object, string> {
  if (!memberCachesEnabled()) return defRefs;
  const entries = data.tools as object[];
  const text = TOOL_ENTRIES.with([...defRefs].flat());
  const named = new Map(defRefs);
  model.tools.forEach((tool, i) => named.set(entries[i]!, text(tool, () => jsonText(entries[i], defRefs, TOOL_ENTRY_INDENT))));
  return named;
}

/** Each large list's tool const as TypeScript text, by its IR object (--watch). */
const TOOL_CONSTS = new MemberCache<ToolModel, string>();

/** A large list's tools, one typed const each (LARGE_TOOL_LIST); with --watch an unchanged tool's text is reused. */
function toolConsts(model: ServerModel, tools: readonly object[], defRefs: ReadonlyMap<object, string>): string[] {
  const text = TOOL_CONSTS.with([...defRefs].flat());
  return [
    `/** One tool each, typed on its own: one literal of ${tools.length} tools is a union too complex for tsc (TS2590). */\ntype Tool = ServerDefinition['tools'][number];`,
    ...model.tools.map((tool, i) => `const tool${i}: Tool = ${text(tool, () => jsonLiteral(tools[i], defRefs))};`),
  ];
}

/** Spec `$defs` entries (object schemas) that bundling copied into some tool schema, by their schema object. */
function sharedDefs(model: ServerModel): Map<object, DefModel> {
  // What the tools' bundled `$defs` hold, by name, gathered once: asking every tool about every def was
  // 969 × 1,223 lookups for GitHub's description.
  const inTools = new Map<string, Set<unknown>>();
  for (const t of model.tools) {
    for (const schema of [t.inputSchema, t.outputSchema]) {
      const $defs = schema?.$defs;
      if (!isObjectSchema($defs)) continue;
      for (const name of Object.keys($defs)) {
        let values = inTools.get(name);
        if (values === undefined) inTools.set(name, (values = new Set()));
        values.add($defs[name]);
      }
    }
  }
  const used = model.defs.filter((d) => isObjectSchema(d.schema) && inTools.get(d.name)?.has(d.schema) === true);
  return new Map(used.map((d) => [d.schema as object, d]));
}

/**
 * JSON text that is also a TypeScript expression meaning the same data: U+2028/9 escaped, and a
 * `"__proto__"` key written as a computed key, since in an object literal it would set the prototype.
 * An object found in `named` is written as its expression instead (the same object at run time).
 */
export function jsonLiteral(value: unknown, named: ReadonlyMap<object, string> = new Map()): string {
  const json = named.size === 0 ? JSON.stringify(value, null, 2) : jsonText(value, named, '');
  // Each pass only when there is something for it to do: the `^(\s*)` scan of a 2 MB text costs ~10 ms.
  const separators = /[\u2028\u2029]/.test(json) ? json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029') : json;
  return separators.includes('"__proto__":') ? separators.replace(/^(\s*)"__proto__":/gm, '$1["__proto__"]:') : separators;
}

/** JSON.stringify(value, null, 2) of plain JSON data, with the objects in `named` written as their expressions. */
function jsonText(value: unknown, named: ReadonlyMap<object, string>, indent: string): string {
  return stringifiedWithNames(value, named, indent) ?? jsonTextWalked(value, named, indent);
}

/**
 * jsonText by one JSON.stringify, each object of `named` given as a marker string and its expression put in
 * place of the marker's quoted text afterwards (a tenth of the time of the walk below on 1,000 tools).
 * Undefined when the data itself holds text like a marker: there is no telling the two apart.
 */
function stringifiedWithNames(value: unknown, named: ReadonlyMap<object, string>, indent: string): string | undefined {
  const names: string[] = [];
  const json = JSON.stringify(
    value,
    (_key, v: unknown) => {
      const name = typeof v === 'object' && v !== null ? named.get(v) : undefined;
      if (name === undefined) return v;
      names.push(name);
      return `${NAME_MARKER}${names.length - 1}\u0000`;
    },
    2,
  );
  if (json === undefined) return undefined;
  const text = indent === '' ? json : json.replaceAll('\n', `\n${indent}`);
  if (names.length === 0) return text;
  // Text, then the index of a marker, then text, …: exactly one of each marker, in order.
  const parts = text.split(MARKER_JSON);
  if (parts.length !== names.length * 2 + 1) return undefined;
  for (let i = 1; i < parts.length; i += 2) {
    if (parts[i] !== String((i - 1) / 2)) return undefined;
    parts[i] = names[(i - 1) / 2]!;
  }
  return parts.join('');
}

const NAME_MARKER = '\u0000mcpgen-name-';
/** A marker as JSON.stringify writes it, its index captured. */
const MARKER_JSON = /"\\u0000mcpgen-name-(\d+)\\u0000"/;

/** jsonText walking the data: where the data holds text like a marker of stringifiedWithNames. */
function jsonTextWalked(value: unknown, named: ReadonlyMap<object, string>, indent: string): string {
  const holders = namedHolders(value, named);
  const text = (v: unknown, at: string): string => {
    if (typeof v !== 'object' || v === null) return JSON.stringify(v) ?? 'null';
    const name = named.get(v);
    if (name !== undefined) return name;
    // No named object below: the same text from JSON.stringify, each line moved to this depth (a JSON
    // string holds no raw line break). Writing 3 MB of tool schemas a value at a time was ~0.05 s.
    if (!holders.has(v)) return at === '' ? JSON.stringify(v, null, 2) : JSON.stringify(v, null, 2).replaceAll('\n', `\n${at}`);
    const inner = `${at}  `;
    if (Array.isArray(v)) return v.length === 0 ? '[]' : `[\n${v.map((e) => inner + text(e, inner)).join(',\n')}\n${at}]`;
    const entries = Object.entries(v).filter(([, e]) => e !== undefined && typeof e !== 'function');
    return entries.length === 0 ? '{}' : `{\n${entries.map(([k, e]) => `${inner}${JSON.stringify(k)}: ${text(e, inner)}`).join(',\n')}\n${at}}`;
  };
  return text(value, indent);
}

/** The objects of `value` that are in `named` or hold one, however deep. */
function namedHolders(value: unknown, named: ReadonlyMap<object, string>): Set<object> {
  const holders = new Set<object>();
  const seen = new Set<object>();
  const visit = (v: unknown): boolean => {
    if (typeof v !== 'object' || v === null) return false;
    if (named.has(v)) return true;
    if (seen.has(v)) return holders.has(v);
    seen.add(v);
    let holds = false;
    for (const e of Array.isArray(v) ? v : Object.values(v)) if (visit(e)) holds = true;
    if (holds) holders.add(v);
    return holds;
  };
  visit(value);
  return holders;
}
