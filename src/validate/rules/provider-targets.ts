// `mcpgen check --target openai-strict,anthropic,gemini`: per tool, what each provider would refuse or the
// generated bridge changes, at the schema keyword it concerns. The rules are data shared with the bridges
// (@mcpgen/runtime/shared/provider-rules), the names come from the same mapping the bridges send.
import { isObjectSchema, specDefsUsed, walkSchema, type SchemaPath } from '../../common/json-schema.js';
import type { DiagnosticCode } from '../../diagnostics/codes.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diagnosticAt } from '../../parse/source.js';
import type { JsonSchema } from '../spec-types.js';
import type { Located, SpecView } from '../view.js';
import { GEMINI_NAMES, GEMINI_PROPERTY_NAMES, OPENAI_NAMES, providerNames } from '@mcpgen/runtime/shared/provider-names';
import { ANTHROPIC_ROOT_REFUSED, KEYWORD_RULES, OPENAI_STRICT_FORMATS, openAiStrictLimitsExceeded, type Effect, type ProviderTarget } from '@mcpgen/runtime/shared/provider-rules';

const CODE: Readonly<Record<ProviderTarget, DiagnosticCode>> = { 'openai-strict': 'MCPG167', anthropic: 'MCPG168', gemini: 'MCPG169' };
const LABEL: Readonly<Record<ProviderTarget, string>> = { 'openai-strict': 'OpenAI strict mode', anthropic: 'Anthropic', gemini: 'Gemini' };

/** One thing a provider refuses or the bridge changes, at a path inside the schema. */
export interface SchemaFinding {
  readonly path: SchemaPath;
  readonly effect: Effect;
  readonly why: string;
}

/** Everything `target` refuses or changes in one input schema (its own `$defs` included), in document order. */
export function schemaFindings(schema: JsonSchema, target: ProviderTarget): SchemaFinding[] {
  const out: SchemaFinding[] = [];
  // What is inside a dropped keyword (`not: { const: … }`) is not sent at all: nothing more to report there.
  const gone: string[] = [];
  walkSchema(schema, ({ schema: node, path }) => {
    const at = path.join('\u0000');
    if (!isObjectSchema(node) || gone.some((g) => at === g || at.startsWith(`${g}\u0000`))) return;
    for (const [key, value] of Object.entries(node)) {
      const found = target === 'gemini' && key === 'allOf' && Array.isArray(value) ? geminiAllOf(node) : keywordFinding(target, key, value, path.length === 0);
      if (found === undefined) continue;
      out.push({ path: [...path, key], ...found });
      if (found.effect === 'dropped') gone.push([...path, key].join('\u0000'));
    }
    const objectLike = node.type === 'object' || isObjectSchema(node.properties);
    if (target === 'openai-strict' && objectLike) out.push(...strictObject(node, path));
    if (target === 'gemini' && isObjectSchema(node.properties)) {
      // The same per-object mapping the bridge sends (gemini-schema.ts) and maps back before the handler.
      for (const [name, sent] of providerNames(Object.keys(node.properties), GEMINI_PROPERTY_NAMES).toProvider) {
        if (sent !== name) out.push({ path: [...path, 'properties', name], effect: 'changed', why: `Gemini refuses parameter name "${name}" (a letter or "_" first, then letters, digits and "_", 64 at most): the bridge sends "${sent}" and maps it back before the handler` });
      }
    }
  });
  return out;
}

function keywordFinding(target: ProviderTarget, key: string, value: unknown, root: boolean): Omit<SchemaFinding, 'path'> | undefined {
  if (target === 'anthropic' && root && ANTHROPIC_ROOT_REFUSED.includes(key)) return { effect: 'dropped', why: `Anthropic refuses \`${key}\` at the root of input_schema: left out (the server still checks it)` };
  if (target === 'openai-strict' && root && key === 'anyOf') return { effect: 'refused', why: 'strict mode needs an object at the root, not `anyOf`: the tool goes out with `strict: false`' };
  if (target === 'openai-strict' && key === 'format' && !OPENAI_STRICT_FORMATS.includes(String(value))) return { effect: 'dropped', why: `\`format: ${String(value)}\` is not one of strict mode's formats: left out (the server still checks it)` };
  if (target === 'gemini' && key === 'type' && Array.isArray(value)) return { effect: 'changed', why: 'Gemini\'s Schema has one type per schema: a type list is sent as `anyOf` of single types' };
  const rule = Object.hasOwn(KEYWORD_RULES[target], key) ? KEYWORD_RULES[target][key] : undefined;
  if (rule === undefined) return undefined;
  return { effect: rule.effect, why: `\`${key}\`: ${rule.why}${rule.effect === 'dropped' ? ': left out (the server still checks it)' : ''}` };
}

/** Gemini has no allOf: the bridge merges its parts (gemini-schema.ts mergeAllOf); a part saying something else for a keyword already set is lost. */
function geminiAllOf(node: Readonly<Record<string, unknown>>): Omit<SchemaFinding, 'path'> {
  const seen: Record<string, unknown> = Object.fromEntries(Object.entries(node).filter(([k]) => k !== 'allOf'));
  const props: Record<string, unknown> = isObjectSchema(node.properties) ? { ...node.properties } : {};
  const lost: string[] = [];
  for (const part of node.allOf as unknown[]) {
    if (!isObjectSchema(part)) continue;
    for (const [k, v] of Object.entries(part)) {
      if (k === 'required' || k === '$ref' || k === '$defs') continue;
      if (k === 'properties' && isObjectSchema(v)) {
        for (const [name, p] of Object.entries(v)) if (Object.hasOwn(props, name) && JSON.stringify(props[name]) !== JSON.stringify(p)) lost.push(`properties.${name}`);
        Object.assign(props, v);
      } else if (Object.hasOwn(seen, k) && JSON.stringify(seen[k]) !== JSON.stringify(v)) lost.push(k);
      else seen[k] = v;
    }
  }
  if (lost.length === 0) return { effect: 'changed', why: 'Gemini\'s Schema has no `allOf`: its parts are merged into the schema (properties and `required` joined)' };
  return { effect: 'dropped', why: `Gemini\'s Schema has no \`allOf\`: its parts are merged, but what they say differently for ${lost.join(', ')} is left out, so the model may send values the server refuses (the server still checks the whole allOf)` };
}

/** Strict mode: every object closed and every property required; maps have no strict form. */
function strictObject(node: Readonly<Record<string, unknown>>, path: SchemaPath): SchemaFinding[] {
  const props = isObjectSchema(node.properties) ? node.properties : {};
  const extra = node.additionalProperties;
  if (extra !== undefined && extra !== false && Object.keys(props).length === 0) {
    return [{ path: [...path, 'additionalProperties'], effect: 'refused', why: 'an object with open keys (a map) has no strict form: the tool goes out with `strict: false`' }];
  }
  const out: SchemaFinding[] = [];
  if (extra !== false) out.push({ path, effect: 'changed', why: 'strict mode needs `additionalProperties: false`: the object is closed, so the model sends only the listed properties' });
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  for (const name of Object.keys(props)) {
    if (required.has(name)) continue;
    const why = acceptsNull(props[name])
      ? `optional "${name}" already accepts null, so it is sent as required: a null from the model reaches the handler as null, where a non-strict call could leave it out (not lossless)`
      : `optional "${name}" is sent as required and nullable; a null is mapped back to "not given" before the handler`;
    out.push({ path: [...path, 'properties', name], effect: 'changed', why });
  }
  return out;
}

/** Whether a property schema takes null as it is (then strict mode's null cannot mean "not given"). */
function acceptsNull(s: unknown): boolean {
  if (s === true) return true;
  if (!isObjectSchema(s)) return false;
  if (s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null')) || s.const === null) return !Array.isArray(s.enum) || s.enum.includes(null);
  if (Array.isArray(s.enum) && s.enum.includes(null) && s.type === undefined) return true;
  return ['anyOf', 'oneOf'].some((k) => Array.isArray(s[k]) && (s[k] as unknown[]).some(acceptsNull));
}

/** The diagnostics of `check --target`: tool names, then each tool's input schema and the spec `$defs` it uses (once). */
export function checkProviderTargets(view: SpecView, targets: readonly ProviderTarget[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const specDefs = new Map(view.defs.map((d) => [String(d.path[1]), d]));
  const defSchemas = new Map([...specDefs].map(([name, d]) => [name, d.value]));
  for (const target of targets) {
    const names = providerNames(view.tools.map((t) => t.value.name), target === 'gemini' ? GEMINI_NAMES : OPENAI_NAMES).toProvider;
    const defsDone = new Set<string>();
    for (const tool of view.tools) {
      const sent = names.get(tool.value.name);
      if (sent !== undefined && sent !== tool.value.name) {
        out.push(diagnosticAt(tool.source, [...tool.path, 'name'], 'MCPG170', `tool "${tool.value.name}": ${LABEL[target]} refuses this function name (${target === 'gemini' ? 'a letter or "_" first, then [A-Za-z0-9_.:-], 64 at most' : '^[a-zA-Z0-9_-]{1,64}$'}): the bridge sends "${sent}" and maps it back`));
      }
      const input = tool.value.input;
      if (input === undefined) continue;
      report(out, target, { value: input, source: tool.source, path: [...tool.path, 'input'] }, `tool "${tool.value.name}"`);
      if (target === 'openai-strict') {
        const used = Object.fromEntries(specDefsUsed(input, defSchemas).map((n) => [n, defSchemas.get(n)]));
        for (const m of openAiStrictLimitsExceeded({ ...input, $defs: { ...(input.$defs ?? {}), ...used } })) {
          out.push(diagnosticAt(tool.source, [...tool.path, 'input'], 'MCPG167', `tool "${tool.value.name}": OpenAI strict mode refuses this: ${m} (OpenAI refuses the whole request): the bridge sends this tool with \`strict: false\``, 'key'));
        }
      }
      for (const name of specDefsUsed(input, defSchemas)) {
        const def = specDefs.get(name);
        if (def === undefined || defsDone.has(name)) continue;
        defsDone.add(name);
        report(out, target, def, `$defs "${name}" (used by tool "${tool.value.name}")`, false);
      }
    }
  }
  return out;
}

function report(out: Diagnostic[], target: ProviderTarget, schema: Located<JsonSchema>, what: string, isRoot = true): void {
  for (const f of schemaFindings(schema.value, target)) {
    // Root-only rules do not apply inside a spec `$defs` entry: it is never an input schema's root.
    if (!isRoot && f.path.length === 1 && (ANTHROPIC_ROOT_REFUSED.includes(String(f.path[0])) || String(f.path[0]) === 'anyOf')) continue;
    out.push(diagnosticAt(schema.source, [...schema.path, ...f.path], CODE[target], `${what}: ${LABEL[target]} ${f.effect === 'refused' ? 'refuses this' : f.effect === 'dropped' ? 'drops this' : 'changes this'}: ${f.why}`, 'key'));
  }
}
