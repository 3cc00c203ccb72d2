// Breaking-change rules as data (after buf): each has a stable id, a category and a one-line reason.
// Ids are never renamed or reused: configs ignore them and CI logs key on them.
import type { ViolationKind } from './schema-subset.js';

export type Category = 'callers' | 'typed-clients' | 'infrastructure' | 'unprovable' | 'model-facing' | 'additions';
/** `unproven`: may break or may not, and no proof either way (two different patterns): fails only when failOn names `unprovable`. */
export type Severity = 'breaking' | 'unproven' | 'non-breaking' | 'info';

export interface Rule {
  readonly id: string;
  readonly category: Category;
  readonly severity: Severity;
  readonly why: string;
}

const r = (id: string, category: Category, severity: Severity, why: string): Rule => ({ id, category, severity, why });

/** Input schema violations (old ⊄ new): a value a caller sent before is refused now. */
const INPUT: Record<ViolationKind, Rule> = {
  type: r('INPUT_TYPE_NARROWED', 'callers', 'breaking', 'an argument type a caller sent is refused'),
  enum: r('INPUT_ENUM_NARROWED', 'callers', 'breaking', 'an enum value a caller sent is refused'),
  required: r('INPUT_REQUIRED_ADDED', 'callers', 'breaking', 'a call without the new required argument is refused'),
  property: r('INPUT_PROPERTY_REMOVED', 'callers', 'breaking', 'an argument callers send is refused (closed input) or silently ignored (open input)'),
  additionalProperties: r('INPUT_ADDITIONAL_PROPERTIES_CLOSED', 'callers', 'breaking', 'extra arguments callers sent are refused'),
  minimum: r('INPUT_MINIMUM_RAISED', 'callers', 'breaking', 'small numbers callers sent are refused'),
  maximum: r('INPUT_MAXIMUM_LOWERED', 'callers', 'breaking', 'large numbers callers sent are refused'),
  multipleOf: r('INPUT_MULTIPLE_OF_CHANGED', 'callers', 'breaking', 'numbers callers sent are no longer multiples'),
  minLength: r('INPUT_MIN_LENGTH_RAISED', 'callers', 'breaking', 'short strings callers sent are refused'),
  maxLength: r('INPUT_MAX_LENGTH_LOWERED', 'callers', 'breaking', 'long strings callers sent are refused'),
  pattern: r('INPUT_PATTERN_CHANGED', 'callers', 'breaking', 'strings callers sent may not match the new pattern'),
  patternReplaced: r('INPUT_PATTERN_REPLACED', 'unprovable', 'unproven', 'one pattern replaced by another: strings callers sent may or may not match it (not proven either way)'),
  format: r('INPUT_FORMAT_CHANGED', 'callers', 'breaking', 'strings callers sent may not have the new format'),
  formatReplaced: r('INPUT_FORMAT_REPLACED', 'unprovable', 'unproven', 'one format replaced by another: strings callers sent may or may not have it (not proven either way)'),
  minItems: r('INPUT_MIN_ITEMS_RAISED', 'callers', 'breaking', 'short arrays callers sent are refused'),
  maxItems: r('INPUT_MAX_ITEMS_LOWERED', 'callers', 'breaking', 'long arrays callers sent are refused'),
  uniqueItems: r('INPUT_UNIQUE_ITEMS_ADDED', 'callers', 'breaking', 'arrays with repeated items are refused'),
  propertyCount: r('INPUT_PROPERTY_COUNT_TIGHTENED', 'callers', 'breaking', 'objects with the old number of properties are refused'),
  unproven: r('INPUT_SCHEMA_NARROWED', 'callers', 'breaking', 'the input may refuse values it accepted (not provably safe)'),
};

/** Output schema violations (new ⊄ old): a result a typed client validates or types against is new to it. */
const OUTPUT: Record<ViolationKind, Rule> = {
  type: r('OUTPUT_TYPE_WIDENED', 'typed-clients', 'breaking', 'results carry a type old clients do not expect'),
  enum: r('OUTPUT_ENUM_WIDENED', 'typed-clients', 'breaking', 'results carry an enum value old clients do not know'),
  required: r('OUTPUT_PROPERTY_NO_LONGER_REQUIRED', 'typed-clients', 'breaking', 'a result property old clients rely on may be missing'),
  property: r('OUTPUT_PROPERTY_UNDECLARED', 'typed-clients', 'breaking', 'results carry a property the old closed output forbids'),
  additionalProperties: r('OUTPUT_ADDITIONAL_PROPERTIES_OPENED', 'typed-clients', 'breaking', 'results may carry properties the old closed output forbids'),
  minimum: r('OUTPUT_MINIMUM_LOWERED', 'typed-clients', 'breaking', 'results may be smaller than old clients allow'),
  maximum: r('OUTPUT_MAXIMUM_RAISED', 'typed-clients', 'breaking', 'results may be larger than old clients allow'),
  multipleOf: r('OUTPUT_MULTIPLE_OF_CHANGED', 'typed-clients', 'breaking', 'result numbers may not be multiples old clients expect'),
  minLength: r('OUTPUT_MIN_LENGTH_LOWERED', 'typed-clients', 'breaking', 'result strings may be shorter than old clients allow'),
  maxLength: r('OUTPUT_MAX_LENGTH_RAISED', 'typed-clients', 'breaking', 'result strings may be longer than old clients allow'),
  pattern: r('OUTPUT_PATTERN_CHANGED', 'typed-clients', 'breaking', 'result strings may not match the old pattern'),
  patternReplaced: r('OUTPUT_PATTERN_REPLACED', 'unprovable', 'unproven', 'one pattern replaced by another: results may or may not match the old one (not proven either way)'),
  format: r('OUTPUT_FORMAT_CHANGED', 'typed-clients', 'breaking', 'result strings may not have the old format'),
  formatReplaced: r('OUTPUT_FORMAT_REPLACED', 'unprovable', 'unproven', 'one format replaced by another: results may or may not have the old one (not proven either way)'),
  minItems: r('OUTPUT_MIN_ITEMS_LOWERED', 'typed-clients', 'breaking', 'result arrays may be shorter than old clients allow'),
  maxItems: r('OUTPUT_MAX_ITEMS_RAISED', 'typed-clients', 'breaking', 'result arrays may be longer than old clients allow'),
  uniqueItems: r('OUTPUT_UNIQUE_ITEMS_DROPPED', 'typed-clients', 'breaking', 'result arrays may repeat items'),
  propertyCount: r('OUTPUT_PROPERTY_COUNT_LOOSENED', 'typed-clients', 'breaking', 'result objects may have a number of properties old clients refuse'),
  unproven: r('OUTPUT_SCHEMA_WIDENED', 'typed-clients', 'breaking', 'results may carry values the old output refused (not provably safe)'),
};

export function schemaRule(direction: 'input' | 'output', kind: ViolationKind): Rule {
  return (direction === 'input' ? INPUT : OUTPUT)[kind];
}

export const RULES = {
  SERVER_REMOVED: r('SERVER_REMOVED', 'callers', 'breaking', 'no spec declares the server any more: every client of it loses every tool, resource and prompt'),
  SERVER_ADDED: r('SERVER_ADDED', 'additions', 'non-breaking', 'a new server breaks no client'),
  TOOL_REMOVED: r('TOOL_REMOVED', 'callers', 'breaking', 'callers of the tool get "unknown tool"'),
  TOOL_RENAMED: r('TOOL_RENAMED', 'callers', 'breaking', 'callers of the old name get "unknown tool"'),
  TOOL_ADDED: r('TOOL_ADDED', 'additions', 'non-breaking', 'a new tool breaks no caller'),
  INPUT_WIDENED: r('INPUT_WIDENED', 'additions', 'non-breaking', 'the input accepts more: every old call still works'),
  OUTPUT_NARROWED: r('OUTPUT_NARROWED', 'additions', 'non-breaking', 'the output promises less variety: old clients still accept it'),
  OUTPUT_SCHEMA_ADDED: r('OUTPUT_SCHEMA_ADDED', 'additions', 'non-breaking', 'structured results are new'),
  OUTPUT_SCHEMA_REMOVED: r('OUTPUT_SCHEMA_REMOVED', 'typed-clients', 'breaking', 'typed clients lose the structured result they read'),
  OUTPUT_PROPERTY_REMOVED: r('OUTPUT_PROPERTY_REMOVED', 'typed-clients', 'breaking', 'generated result types lose a property client code reads'),
  RESOURCE_REMOVED: r('RESOURCE_REMOVED', 'callers', 'breaking', 'reads of the URI fail'),
  RESOURCE_ADDED: r('RESOURCE_ADDED', 'additions', 'non-breaking', 'a new resource breaks no reader'),
  RESOURCE_URI_CHANGED: r('RESOURCE_URI_CHANGED', 'callers', 'breaking', 'reads of the old URI fail'),
  RESOURCE_MIME_TYPE_CHANGED: r('RESOURCE_MIME_TYPE_CHANGED', 'callers', 'breaking', 'readers parse the content by its MIME type'),
  RESOURCE_TEMPLATE_REMOVED: r('RESOURCE_TEMPLATE_REMOVED', 'callers', 'breaking', 'URIs built from the template no longer resolve'),
  RESOURCE_TEMPLATE_ADDED: r('RESOURCE_TEMPLATE_ADDED', 'additions', 'non-breaking', 'a new template breaks no reader'),
  RESOURCE_TEMPLATE_CHANGED: r('RESOURCE_TEMPLATE_CHANGED', 'callers', 'breaking', 'URIs callers build from the old template (or its variables) no longer match'),
  PROMPT_REMOVED: r('PROMPT_REMOVED', 'callers', 'breaking', 'prompts/get of the name fails'),
  PROMPT_ADDED: r('PROMPT_ADDED', 'additions', 'non-breaking', 'a new prompt breaks no caller'),
  PROMPT_ARGUMENT_REQUIRED: r('PROMPT_ARGUMENT_REQUIRED', 'callers', 'breaking', 'a prompts/get without the argument is refused'),
  PROMPT_ARGUMENT_REMOVED: r('PROMPT_ARGUMENT_REMOVED', 'callers', 'breaking', 'callers passing the argument pass something the prompt ignores or refuses'),
  PROMPT_ARGUMENT_ADDED: r('PROMPT_ARGUMENT_ADDED', 'additions', 'non-breaking', 'a new optional argument breaks no caller'),
  HEADER_REMOVED: r('HEADER_REMOVED', 'infrastructure', 'breaking', 'gateways routing on the Mcp-Param header no longer see it'),
  HEADER_RENAMED: r('HEADER_RENAMED', 'infrastructure', 'breaking', 'gateways routing on the old Mcp-Param header name no longer see it'),
  HEADER_ADDED: r('HEADER_ADDED', 'infrastructure', 'breaking', 'the server requires the new Mcp-Param header over HTTP: clients built from the old definition do not send it and get 400 / -32020'),
  HEADER_MOVED: r('HEADER_MOVED', 'infrastructure', 'breaking', 'clients built from the old definition fill the Mcp-Param header from the old argument: the server refuses the mismatch, gateways route on the wrong value'),
  SCOPES_ADDED: r('SCOPES_ADDED', 'infrastructure', 'breaking', 'tokens issued for the old scopes are refused'),
  SCOPES_REMOVED: r('SCOPES_REMOVED', 'infrastructure', 'non-breaking', 'fewer scopes are needed'),
  AUTH_ADDED: r('AUTH_ADDED', 'infrastructure', 'breaking', 'clients without a token are refused'),
  AUTH_REMOVED: r('AUTH_REMOVED', 'infrastructure', 'info', 'the server no longer asks for a token'),
  AUTH_SERVERS_CHANGED: r('AUTH_SERVERS_CHANGED', 'infrastructure', 'breaking', 'tokens from an old authorization server are refused'),
  TASK_SUPPORT_CHANGED: r('TASK_SUPPORT_CHANGED', 'infrastructure', 'breaking', 'callers that (do not) create tasks for the tool are refused'),
  TASK_SUPPORT_RELAXED: r('TASK_SUPPORT_RELAXED', 'infrastructure', 'non-breaking', 'task support is more permissive'),
  TOOLSET_REMOVED: r('TOOLSET_REMOVED', 'infrastructure', 'breaking', 'deployments started with --toolsets naming it refuse to start (unknown toolset)'),
  TOOLSET_RENAMED: r('TOOLSET_RENAMED', 'infrastructure', 'breaking', 'deployments started with --toolsets naming the old name refuse to start (unknown toolset)'),
  TOOLSET_ADDED: r('TOOLSET_ADDED', 'additions', 'non-breaking', 'a new toolset hides nothing a deployment exposed'),
  TOOLSET_MEMBER_HIDDEN: r('TOOLSET_MEMBER_HIDDEN', 'callers', 'breaking', 'a deployment that exposed the member (by default or with its --toolsets) no longer does: callers get "unknown tool"'),
  READ_ONLY_TOOL_HIDDEN: r('READ_ONLY_TOOL_HIDDEN', 'callers', 'breaking', 'read-only deployments (--read-only) expose only readOnlyHint tools: their callers lose it'),
  ANNOTATION_CHANGED: r('ANNOTATION_CHANGED', 'model-facing', 'info', 'hosts decide on confirmation from tool annotations'),
  TITLE_CHANGED: r('TITLE_CHANGED', 'model-facing', 'info', 'people and models see a different title'),
  DESCRIPTION_CHANGED: r('DESCRIPTION_CHANGED', 'model-facing', 'info', 'models choose tools by their descriptions'),
} as const satisfies Record<string, Rule>;

/** Every rule, for docs, config validation and tests. */
export function allRules(): Rule[] {
  const all = [...Object.values(INPUT), ...Object.values(OUTPUT), ...Object.values(RULES)];
  return all.sort((x, y) => (x.id < y.id ? -1 : 1));
}
