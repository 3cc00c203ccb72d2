// What each model provider refuses or changes in a tool's input schema, as data: read by the bridges that
// convert schemas (runtime-client/bridges) and by `mcpgen check --target` (src/validate), so the report and
// the conversion cannot drift apart. Sources are the providers' published rules:
// - OpenAI strict mode: platform.openai.com/docs/guides/structured-outputs#supported-schemas
// - Anthropic: docs.anthropic.com tool use (`name` ^[a-zA-Z0-9_-]{1,64}$, input_schema `type: object`) and
//   the API's 400 "input_schema does not support oneOf, allOf, or anyOf at the top level"
// - Gemini: the `Schema` of FunctionDeclaration.parameters (an OpenAPI 3.0 subset: @google/genai's Schema type;
//   ai.google.dev/api/caching#Schema), and its parameter-name rule.

export const PROVIDER_TARGETS = ['openai-strict', 'anthropic', 'gemini'] as const;
export type ProviderTarget = (typeof PROVIDER_TARGETS)[number];

/** `refused`: the provider rejects it and the bridge cannot convert it; `dropped`: left out of what the model sees (the server still checks it); `changed`: converted, with the same meaning. */
export type Effect = 'refused' | 'dropped' | 'changed';

export interface KeywordRule {
  readonly effect: Effect;
  readonly why: string;
}

/** Keywords outside OpenAI strict mode's subset: dropped from the strict schema (the server still validates them). */
export const OPENAI_STRICT_DROPPED: readonly string[] = [
  'allOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'patternProperties', 'unevaluatedProperties', 'propertyNames',
  'minProperties', 'maxProperties', 'contains', 'minContains', 'maxContains', 'uniqueItems', 'unevaluatedItems', 'prefixItems', 'minLength', 'maxLength',
  'default', 'examples', '$schema', '$id', '$comment', 'readOnly', 'writeOnly', 'deprecated', 'contentMediaType', 'contentEncoding',
];

/** The `format` values strict mode accepts; any other is dropped. */
export const OPENAI_STRICT_FORMATS: readonly string[] = ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'];

/** Root keywords Anthropic's input_schema refuses. */
export const ANTHROPIC_ROOT_REFUSED: readonly string[] = ['anyOf', 'oneOf', 'allOf'];

/** Keywords Gemini's Schema (OpenAPI 3.0 subset) does not have: dropped (the server still validates them). */
export const GEMINI_DROPPED: readonly string[] = [
  'allOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'patternProperties', 'unevaluatedProperties', 'unevaluatedItems',
  'propertyNames', 'contains', 'minContains', 'maxContains', 'uniqueItems', 'prefixItems', 'multipleOf', 'exclusiveMinimum', 'exclusiveMaximum',
  'additionalProperties', 'examples', '$schema', '$id', '$comment', '$anchor', 'readOnly', 'writeOnly', 'deprecated', 'contentMediaType', 'contentEncoding',
];

/**
 * Gemini parameter (property) names: a letter or `_` first, then letters, digits and `_`; 64 at most. Stated for
 * `FunctionDeclaration.parameters` (@google/genai's types.ts, the Vertex AI FunctionDeclaration reference); the
 * `parametersJsonSchema` the bridge uses states no rule, so the bridge keeps to this one for both paths.
 */
export const GEMINI_PROPERTY_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const dropped = (list: readonly string[], why: string): Record<string, KeywordRule> => Object.fromEntries(list.map((k) => [k, { effect: 'dropped', why }]));

/** Per target, keyword → what happens to it anywhere in an input schema (root-only and object rules are in the check). */
export const KEYWORD_RULES: Readonly<Record<ProviderTarget, Readonly<Record<string, KeywordRule>>>> = {
  'openai-strict': {
    ...dropped(OPENAI_STRICT_DROPPED, 'not in strict mode\'s supported subset'),
    oneOf: { effect: 'changed', why: 'strict mode has `anyOf` only: sent as `anyOf` (the server still checks "exactly one")' },
  },
  anthropic: {},
  gemini: {
    ...dropped(GEMINI_DROPPED, 'not in Gemini\'s Schema (an OpenAPI 3.0 subset)'),
    $ref: { effect: 'changed', why: 'Gemini\'s Schema has no references: the target is inlined' },
    const: { effect: 'changed', why: 'Gemini\'s Schema has no `const`: sent as a one-value `enum`' },
    oneOf: { effect: 'changed', why: 'Gemini\'s Schema has `anyOf` only: sent as `anyOf` (the server still checks "exactly one")' },
  },
};

/**
 * OpenAI strict mode's size limits, as its Structured Outputs guide publishes them (section "Supported
 * schemas", platform.openai.com/docs/guides/structured-outputs#supported-schemas). A schema over one of them
 * is refused with the whole request, every tool in it: the bridge sends that tool with `strict: false`.
 */
export const OPENAI_STRICT_LIMITS = {
  /** "A schema may have up to 5000 object properties total, with up to 10 levels of nesting." */
  properties: 5000,
  nesting: 10,
  /** "In a schema, total string length of all property names, definition names, enum values, and const values cannot exceed 120,000 characters." */
  stringLength: 120_000,
  /** "A schema may have up to 1000 enum values across all enum properties." */
  enumValues: 1000,
  /** "For a single enum property with string values, the total string length of all enum values cannot exceed 15,000 characters when there are more than 250 enum values." */
  largeEnumValues: 250,
  largeEnumLength: 15_000,
} as const;

/**
 * The strict-mode limits a schema goes over, each as a sentence (empty: none). Nesting counts object
 * schemas on the deepest path, the root being level 1; `$defs` entries count where they are defined.
 */
export function openAiStrictLimitsExceeded(schema: unknown): string[] {
  const L = OPENAI_STRICT_LIMITS;
  const t = { properties: 0, depth: 0, chars: 0, enums: 0, bigEnums: [] as number[] };
  const visit = (s: unknown, level: number): void => {
    if (typeof s !== 'object' || s === null) return;
    if (Array.isArray(s)) return s.forEach((x) => visit(x, level));
    const o = s as Record<string, unknown>;
    const isObj = o.type === 'object' || (Array.isArray(o.type) && o.type.includes('object')) || (typeof o.properties === 'object' && o.properties !== null);
    const here = isObj ? level + 1 : level;
    t.depth = Math.max(t.depth, here);
    if (Array.isArray(o.enum)) {
      t.enums += o.enum.length;
      const strings = o.enum.filter((v): v is string => typeof v === 'string');
      const length = strings.reduce((n, v) => n + v.length, 0);
      t.chars += length;
      if (strings.length > L.largeEnumValues && length > L.largeEnumLength) t.bigEnums.push(length);
    }
    if (typeof o.const === 'string') t.chars += o.const.length;
    for (const [key, value] of Object.entries(o)) {
      if ((key === 'properties' || key === '$defs' || key === 'definitions') && typeof value === 'object' && value !== null) {
        for (const [name, sub] of Object.entries(value)) {
          t.chars += name.length;
          if (key === 'properties') t.properties++;
          visit(sub, key === 'properties' ? here : 0);
        }
      } else if (key === 'items' || key === 'anyOf' || key === 'oneOf' || key === 'allOf' || key === 'additionalProperties') visit(value, here);
    }
  };
  visit(schema, 0);
  const out: string[] = [];
  if (t.properties > L.properties) out.push(`${t.properties} object properties in all, over the limit of ${L.properties}`);
  if (t.depth > L.nesting) out.push(`${t.depth} levels of object nesting, over the limit of ${L.nesting}`);
  if (t.chars > L.stringLength) out.push(`${t.chars} characters of property names, definition names, enum and const values, over the limit of ${L.stringLength}`);
  if (t.enums > L.enumValues) out.push(`${t.enums} enum values in all, over the limit of ${L.enumValues}`);
  for (const n of t.bigEnums) out.push(`an enum of more than ${L.largeEnumValues} strings totalling ${n} characters, over the limit of ${L.largeEnumLength}`);
  return out;
}
