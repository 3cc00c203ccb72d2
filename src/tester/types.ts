// What `mcpgen test` runs with and what it reports: one case per check of a tool, prompt or template.

export type CheckKind = 'lists' | 'example' | 'valid' | 'invalid' | 'wire' | 'prompt' | 'prompt-missing' | 'resource';

export interface TestOptions {
  /** fast-check's seed: the same seed sends the same calls. */
  readonly seed: number;
  /** Calls in the whole run, shrinking included. */
  readonly maxCalls: number;
  /** Generated values per property (before shrinking). */
  readonly runs: number;
  /** Per call: past it, the call counts as hanging. */
  readonly timeoutMs: number;
  /** Tools, prompts and templates checked at once. */
  readonly concurrency: number;
  readonly includeDestructive: boolean;
  readonly readOnlyOnly: boolean;
  /** Count a tool error (`isError`) on valid arguments as a pass (servers whose tools fail on most inputs by design). */
  readonly allowToolErrors: boolean;
  /** Tools, prompts and resource templates (by name or URI template) not called at all. */
  readonly exclude: readonly string[];
}

export const DEFAULT_OPTIONS: TestOptions = { seed: 42, maxCalls: 2000, runs: 30, timeoutMs: 10_000, concurrency: 1, includeDestructive: false, readOnlyOnly: false, allowToolErrors: false, exclude: [] };

/** `--exclude`: by name (or URI template); `*` leaves every one out (only the lists are compared). */
export function excludes(options: TestOptions, name: string): boolean {
  return options.exclude.includes(name) || options.exclude.includes('*');
}

/** One failing call, enough to send it again (`--replay`). */
export interface ReplayCase {
  readonly kind: 'tool' | 'prompt' | 'resourceTemplate';
  readonly name: string;
  readonly check: CheckKind;
  readonly arguments?: unknown;
  readonly uri?: string;
  /** For `invalid`: the argument broken and how (the arguments are already broken). */
  readonly argument?: string;
  readonly what?: string;
  /** For `example`: the example's label (`example "name"`, `example 2`), found again in the spec by it. */
  readonly example?: string;
}

export interface CaseResult {
  /** `tool get_forecast`, `prompt greet`, `resource template notes://{id}`, `server`. */
  readonly item: string;
  readonly check: CheckKind;
  /** For `example`: which one (its label). */
  readonly example?: string;
  readonly status: 'passed' | 'failed' | 'skipped';
  readonly calls: number;
  /** Why it failed or was skipped. */
  readonly message?: string;
  readonly replay?: ReplayCase;
  /** Steps fast-check took to shrink the failing value. */
  readonly shrinks?: number;
}

export const CHECK_TITLES: Readonly<Record<CheckKind, string>> = {
  lists: 'lists match the spec',
  example: 'answers as the spec shows',
  valid: 'valid inputs give results the output schema accepts',
  invalid: 'invalid inputs are refused as invalid params',
  wire: 'Mcp-Name / Mcp-Param-* headers: mirrored accepted, mismatched refused',
  prompt: 'prompts/get with its arguments gives messages',
  'prompt-missing': 'prompts/get without a required argument is refused',
  resource: 'resources/read of matching URIs answers',
};

/** A case's title in reports: the check, and for an example which one. */
export function caseTitle(c: Pick<CaseResult, 'check' | 'example'>): string {
  return c.example === undefined ? CHECK_TITLES[c.check] : `${c.example} ${CHECK_TITLES[c.check]}`;
}
