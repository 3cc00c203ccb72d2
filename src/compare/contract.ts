// Spec-level comparison of two server models: primitives added, removed or renamed, then per item its
// schemas (through the subset engine), headers, scopes, task support and model-facing text.
import type { PromptModel, ResourceModel, ResourceTemplateModel, ToolModel } from '../model/ir.js';
import { compareExposure } from './exposure.js';
import { Findings, type Sub } from './findings.js';
import { removedProperties } from './removed-properties.js';
import { RULES, schemaRule, type Rule } from './rules.js';
import type { Schema } from './schema-canonical.js';
import { subsetViolations, type ViolationKind } from './schema-subset.js';
import { deepEqual } from './schema-values.js';
import type { Finding, ItemKind, Side } from './types.js';

export function compareServers(oldSide: Side, newSide: Side): Finding[] {
  const f = new Findings(oldSide, newSide);
  const o = oldSide.model;
  const n = newSide.model;
  compareTools(f, o.tools, n.tools);
  compareResources(f, o.resources, n.resources);
  compareTemplates(f, o.resourceTemplates, n.resourceTemplates);
  compareKeyed(f, 'prompt', o.prompts, n.prompts, (p) => p.name, RULES.PROMPT_REMOVED, RULES.PROMPT_ADDED, comparePrompt);
  compareAuth(f);
  compareExposure(f);
  return f.list;
}

function compareKeyed<T extends { label: string }>(
  f: Findings, kind: ItemKind, olds: readonly T[], news: readonly T[], key: (t: T) => string, removed: Rule, added: Rule, each: (f: Findings, a: T, b: T) => void,
): void {
  const newKeys = new Map(news.map((x) => [key(x), x]));
  const oldKeys = new Map(olds.map((x) => [key(x), x]));
  for (const a of olds) {
    const b = newKeys.get(key(a));
    if (b === undefined) f.add(removed, `${a.label} was removed`, { kind, oldKey: key(a) }, [], undefined);
    else each(f, a, b);
  }
  for (const b of news) if (!oldKeys.has(key(b))) f.add(added, `${b.label} was added`, { kind, newKey: key(b) }, undefined, []);
}

function compareTools(f: Findings, olds: readonly ToolModel[], news: readonly ToolModel[]): void {
  const newNames = new Set(news.map((b) => b.name));
  const oldNames = new Set(olds.map((a) => a.name));
  const gone = olds.filter((a) => !newNames.has(a.name));
  const fresh = news.filter((b) => !oldNames.has(b.name));
  // A removed and an added tool with the same input schema and description: one rename, not two findings.
  const renamed = new Map<ToolModel, ToolModel>();
  for (const a of gone) {
    const b = fresh.find((x) => ![...renamed.values()].includes(x) && deepEqual(x.inputSchema, a.inputSchema) && x.description === a.description);
    if (b !== undefined) renamed.set(a, b);
  }
  for (const [a, b] of renamed) f.add(RULES.TOOL_RENAMED, `tool "${a.name}" was renamed to "${b.name}"`, { kind: 'tool', oldKey: a.name, newKey: b.name }, ['name'], ['name']);
  compareKeyed(f, 'tool', olds.filter((a) => !renamed.has(a)), news.filter((b) => ![...renamed.values()].includes(b)), (t) => t.name, RULES.TOOL_REMOVED, RULES.TOOL_ADDED, compareTool);
}

function compareTool(f: Findings, a: ToolModel, b: ToolModel): void {
  // The very same IR: the old version's check reused it (same tool text, same `$defs`; see runBreaking).
  if (a === b) return;
  const where = { kind: 'tool' as const, oldKey: a.name, newKey: b.name };
  compareSchemas(f, a.label, 'input', a.inputSchema as Schema, b.inputSchema as Schema, where);
  removedPropertyFindings(f, a.label, 'input', a.inputSchema as Schema, b.inputSchema as Schema, where);
  if (a.outputSchema && !b.outputSchema) f.add(RULES.OUTPUT_SCHEMA_REMOVED, `${a.label}: output schema removed`, where, ['output'], []);
  if (!a.outputSchema && b.outputSchema) f.add(RULES.OUTPUT_SCHEMA_ADDED, `${a.label}: output schema added`, where, [], ['output']);
  if (a.outputSchema && b.outputSchema) {
    compareSchemas(f, a.label, 'output', a.outputSchema as Schema, b.outputSchema as Schema, where);
    removedPropertyFindings(f, a.label, 'output', a.outputSchema as Schema, b.outputSchema as Schema, where);
  }
  compareHeaders(f, a, b, where);
  compareScopes(f, a.label, a.scopes, b.scopes, where);
  compareTask(f, a, b, where);
  for (const k of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint', 'title'] as const) {
    const x = a.annotations?.[k];
    const y = b.annotations?.[k];
    if (x !== y && (x ?? HINT_DEFAULTS[k]) !== (y ?? HINT_DEFAULTS[k])) f.add(RULES.ANNOTATION_CHANGED, `${a.label}: annotation ${k} ${JSON.stringify(x) ?? 'unset'} → ${JSON.stringify(y) ?? 'unset'}`, where, ['annotations', k], ['annotations', k]);
  }
  compareText(f, a, b, where);
}

/** What a host assumes for a hint the tool leaves out (MCP ToolAnnotations): writing the default out is no change. */
const HINT_DEFAULTS: Readonly<Record<string, boolean | undefined>> = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

function compareText(f: Findings, a: { label: string; title?: string; description?: string }, b: { title?: string; description?: string }, where: { kind: ItemKind; oldKey: string; newKey: string }): void {
  if (a.title !== b.title) f.add(RULES.TITLE_CHANGED, `${a.label}: title changed`, where, ['title'], ['title']);
  if (a.description !== b.description) f.add(RULES.DESCRIPTION_CHANGED, `${a.label}: description changed`, where, ['description'], ['description']);
}

/** Input: old ⊆ new must hold (breaking otherwise), new ⊆ old failing is a widening. Output the other way round. */
function compareSchemas(f: Findings, label: string, dir: 'input' | 'output', oldS: Schema, newS: Schema, where: { kind: ItemKind; oldKey: string; newKey: string }): void {
  if (deepEqual(oldS, newS)) return; // most tools of a large spec are unchanged: no subset proof to run
  const breaking = dir === 'input' ? subsetViolations(oldS, newS) : subsetViolations(newS, oldS);
  for (const v of breaking) f.add(schemaRule(dir, v.kind), `${label}: ${dir} ${pathText(v.path)}: ${dir === 'input' ? v.detail : RELAXED[v.kind]}`, where, [dir, ...v.path], [dir, ...v.path]);
  if (breaking.length > 0) return;
  const safe = dir === 'input' ? subsetViolations(newS, oldS) : subsetViolations(oldS, newS);
  if (safe.length > 0) f.add(dir === 'input' ? RULES.INPUT_WIDENED : RULES.OUTPUT_NARROWED, `${label}: ${dir} ${dir === 'input' ? 'accepts more' : 'returns less'} (${safe.map((v) => `${pathText(v.path)}: ${dir === 'output' ? v.detail : RELAXED[v.kind]}`).join('; ')})`, where, [dir, ...safe[0]!.path], [dir, ...safe[0]!.path]);
}

// subsetViolations words each reason as a change from its first schema to its second ("upper bound lowered").
// Where the new schema is the first (output breaking, input widened), that wording reads backwards, so the
// reason is said from the new schema's side instead.
const RELAXED: Readonly<Record<ViolationKind, string>> = {
  type: 'a type the old schema refused is now allowed',
  enum: 'values outside the old enum or const are now allowed',
  required: 'no longer required',
  property: 'a property the old schema refused is now allowed',
  additionalProperties: 'undeclared properties are now allowed',
  minimum: 'lower bound lowered or removed',
  maximum: 'upper bound raised or removed',
  multipleOf: 'multipleOf relaxed or removed',
  minLength: 'minLength lowered or removed',
  maxLength: 'maxLength raised or removed',
  pattern: 'pattern changed or removed',
  patternReplaced: 'pattern replaced by another',
  format: 'format changed or removed',
  formatReplaced: 'format replaced by another',
  minItems: 'minItems lowered or removed',
  maxItems: 'maxItems raised or removed',
  uniqueItems: 'items may now repeat',
  propertyCount: 'property count bounds relaxed',
  unproven: 'changed in a way not proven safe',
};

function pathText(path: Sub): string {
  return path.length === 0 ? '(root)' : path.join('.');
}

/**
 * Properties the old schema declared and the new one does not, at any depth (items, $refs included).
 * Output: typed clients read result properties by name, so one gone is gone from their types. Input: an
 * open object still accepts the argument callers send, and the tool runs without it; a closed one refuses
 * it, which the subset engine reports already.
 */
function removedPropertyFindings(f: Findings, label: string, dir: 'input' | 'output', a: Schema, b: Schema, where: { kind: ItemKind; oldKey: string; newKey: string }): void {
  if (deepEqual(a, b)) return;
  for (const r of removedProperties(a, b)) {
    const name = [...r.path.filter((p) => p !== 'properties'), r.name].join('.');
    if (dir === 'output') f.add(RULES.OUTPUT_PROPERTY_REMOVED, `${label}: output property ${name} was removed`, where, ['output', ...r.path, 'properties', r.name], ['output', ...r.path]);
    else if (!r.closed) f.add(schemaRule('input', 'property'), `${label}: input ${name} was removed: callers that still send it pass validation and the tool runs without it`, where, ['input', ...r.path, 'properties', r.name], ['input', ...r.path]);
  }
}

function compareHeaders(f: Findings, a: ToolModel, b: ToolModel, where: { kind: ItemKind; oldKey: string; newKey: string }): void {
  const at = (path: readonly string[]) => ['input', ...path.flatMap((p) => ['properties', p]), 'x-mcp-header'];
  const sameName = (x: { header: string }, y: { header: string }) => x.header.toLowerCase() === y.header.toLowerCase();
  const moved = new Set<(typeof b.headers)[number]>();
  for (const h of a.headers) {
    const same = b.headers.find((x) => deepEqual(x.path, h.path));
    const elsewhere = same === undefined ? b.headers.find((x) => sameName(x, h) && !a.headers.some((y) => deepEqual(y.path, x.path))) : undefined;
    if (elsewhere !== undefined) {
      moved.add(elsewhere);
      f.add(RULES.HEADER_MOVED, `${a.label}: header Mcp-Param-${h.header} now carries argument ${elsewhere.path.join('.')} (was ${h.path.join('.')})`, where, at(h.path), at(elsewhere.path));
    } else if (same === undefined) f.add(RULES.HEADER_REMOVED, `${a.label}: header Mcp-Param-${h.header} (argument ${h.path.join('.')}) was removed`, where, at(h.path), ['input']);
    else if (!sameName(same, h)) f.add(RULES.HEADER_RENAMED, `${a.label}: header Mcp-Param-${h.header} is now Mcp-Param-${same.header}`, where, at(h.path), at(same.path));
  }
  for (const h of b.headers) {
    if (moved.has(h) || a.headers.some((x) => deepEqual(x.path, h.path))) continue;
    f.add(RULES.HEADER_ADDED, `${a.label}: header Mcp-Param-${h.header} added (argument ${h.path.join('.')}): clients built from the old definition do not send it`, where, undefined, at(h.path));
  }
}

function compareScopes(f: Findings, label: string, a: readonly string[], b: readonly string[], where: { kind: ItemKind; oldKey: string; newKey: string } | undefined, sub: Sub = ['scopes']): void {
  const added = b.filter((s) => !a.includes(s));
  const removed = a.filter((s) => !b.includes(s));
  if (added.length > 0) f.add(RULES.SCOPES_ADDED, `${label}: now needs scope ${added.join(', ')}`, where, sub, sub);
  if (removed.length > 0) f.add(RULES.SCOPES_REMOVED, `${label}: no longer needs scope ${removed.join(', ')}`, where, sub, sub);
}

function compareTask(f: Findings, a: ToolModel, b: ToolModel, where: { kind: ItemKind; oldKey: string; newKey: string }): void {
  const x = a.task?.support ?? 'never';
  const y = b.task?.support ?? 'never';
  if (x === y) return;
  // optional accepts both kinds of call: moving to it is safe; leaving it, or never ↔ required, is not.
  const rule = y === 'optional' ? RULES.TASK_SUPPORT_RELAXED : RULES.TASK_SUPPORT_CHANGED;
  f.add(rule, `${a.label}: task support ${x} → ${y}`, where, ['task'], ['task']);
}

/** Resources by URI; one whose URI is gone and one new with the same name: the URI changed (one finding, not two). */
function compareResources(f: Findings, olds: readonly ResourceModel[], news: readonly ResourceModel[]): void {
  const gone = olds.filter((a) => !news.some((b) => b.uri === a.uri));
  const fresh = news.filter((b) => !olds.some((a) => a.uri === b.uri));
  const moved = new Map<ResourceModel, ResourceModel>();
  for (const a of gone) {
    const b = fresh.find((x) => x.name === a.name && ![...moved.values()].includes(x));
    if (b !== undefined) moved.set(a, b);
  }
  for (const [a, b] of moved) {
    f.add(RULES.RESOURCE_URI_CHANGED, `${a.label}: URI ${a.uri} → ${b.uri}`, { kind: 'resource', oldKey: a.uri, newKey: b.uri }, ['uri'], ['uri'], [a.name]);
    compareResource(f, a, b);
  }
  compareKeyed(f, 'resource', olds.filter((a) => !moved.has(a)), news.filter((b) => ![...moved.values()].includes(b)), (r) => r.uri, RULES.RESOURCE_REMOVED, RULES.RESOURCE_ADDED, compareResource);
}

function compareResource(f: Findings, a: ResourceModel, b: ResourceModel): void {
  const where = { kind: 'resource' as const, oldKey: a.uri, newKey: b.uri };
  if (a.mimeType !== b.mimeType) f.add(RULES.RESOURCE_MIME_TYPE_CHANGED, `${a.label}: MIME type ${a.mimeType ?? 'unset'} → ${b.mimeType ?? 'unset'}`, where, ['mimeType'], ['mimeType']);
  compareScopes(f, a.label, a.scopes, b.scopes, where);
  compareText(f, a, b, where);
}

function compareTemplates(f: Findings, olds: readonly ResourceTemplateModel[], news: readonly ResourceTemplateModel[]): void {
  const kind = 'resourceTemplate' as const;
  for (const a of olds) {
    const b = news.find((x) => x.uriTemplate === a.uriTemplate) ?? news.find((x) => x.name === a.name && !olds.some((o) => o.uriTemplate === x.uriTemplate));
    if (b === undefined) {
      f.add(RULES.RESOURCE_TEMPLATE_REMOVED, `${a.label} was removed`, { kind, oldKey: a.uriTemplate }, [], undefined);
      continue;
    }
    const where = { kind, oldKey: a.uriTemplate, newKey: b.uriTemplate };
    if (b.uriTemplate !== a.uriTemplate) {
      const va = a.variables.map((v) => v.name).join(', ');
      const vb = b.variables.map((v) => v.name).join(', ');
      f.add(RULES.RESOURCE_TEMPLATE_CHANGED, `${a.label}: URI template ${a.uriTemplate} → ${b.uriTemplate}${va === vb ? '' : ` (variables ${va} → ${vb})`}`, where, ['uriTemplate'], ['uriTemplate']);
    }
    if (a.mimeType !== b.mimeType) f.add(RULES.RESOURCE_MIME_TYPE_CHANGED, `${a.label}: MIME type ${a.mimeType ?? 'unset'} → ${b.mimeType ?? 'unset'}`, where, ['mimeType'], ['mimeType']);
    compareScopes(f, a.label, a.scopes, b.scopes, where);
    compareText(f, a, b, where);
  }
  for (const b of news) {
    const matched = olds.some((a) => a.uriTemplate === b.uriTemplate || (a.name === b.name && !news.some((x) => x.uriTemplate === a.uriTemplate)));
    if (!matched) f.add(RULES.RESOURCE_TEMPLATE_ADDED, `${b.label} was added`, { kind, newKey: b.uriTemplate }, undefined, []);
  }
}

function comparePrompt(f: Findings, a: PromptModel, b: PromptModel): void {
  const where = { kind: 'prompt' as const, oldKey: a.name, newKey: b.name };
  const at = (p: PromptModel, name: string) => ['arguments', p.arguments.findIndex((x) => x.name === name)];
  for (const x of a.arguments) {
    const y = b.arguments.find((z) => z.name === x.name);
    if (y === undefined) f.add(RULES.PROMPT_ARGUMENT_REMOVED, `${a.label}: argument ${x.name} was removed`, where, at(a, x.name), ['arguments']);
    else if (y.required && !x.required) f.add(RULES.PROMPT_ARGUMENT_REQUIRED, `${a.label}: argument ${x.name} is now required`, where, at(a, x.name), at(b, y.name));
  }
  for (const y of b.arguments) {
    if (a.arguments.some((x) => x.name === y.name)) continue;
    const rule = y.required ? RULES.PROMPT_ARGUMENT_REQUIRED : RULES.PROMPT_ARGUMENT_ADDED;
    f.add(rule, `${a.label}: ${y.required ? 'required ' : ''}argument ${y.name} was added`, where, undefined, at(b, y.name));
  }
  compareScopes(f, a.label, a.scopes, b.scopes, where);
  compareText(f, a, b, where);
}

function compareAuth(f: Findings): void {
  const a = f.oldSide.model.auth;
  const b = f.newSide.model.auth;
  if (!a && b) return f.add(RULES.AUTH_ADDED, 'the server now requires authorization', undefined, undefined, ['auth']);
  if (a && !b) return f.add(RULES.AUTH_REMOVED, 'the server no longer requires authorization', undefined, ['auth'], undefined);
  if (!a || !b) return;
  if (!deepEqual([...a.authorizationServers].sort(), [...b.authorizationServers].sort())) f.add(RULES.AUTH_SERVERS_CHANGED, `authorization servers ${a.authorizationServers.join(', ')} → ${b.authorizationServers.join(', ')}`, undefined, ['auth', 'authorizationServers'], ['auth', 'authorizationServers']);
  compareScopes(f, 'the server', a.requiredScopes, b.requiredScopes, undefined, ['auth', 'requiredScopes']);
}
