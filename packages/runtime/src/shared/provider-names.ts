// Tool names every model provider accepts. MCP allows 128 characters of [A-Za-z0-9_.-]; OpenAI and
// Anthropic function names are at most 64 characters of [A-Za-z0-9_-]; Gemini's start with a letter or `_`
// and may hold dots, colons and dashes (64 at most in Vertex AI's published rule, the stricter of the two
// Google states). The mapping is a pure function of the set of tool names, so the side that declares the
// tools and the side that dispatches the calls compute the same one independently, in any order. The same
// mapping, with Gemini's parameter-name rule, renames the properties of each object in a Gemini schema.
import { GEMINI_PROPERTY_NAME } from './provider-rules.js';

/** What a provider accepts as a function name, and how any other name is made acceptable. */
export interface NameRule {
  readonly valid: RegExp;
  /** A name with every character the provider refuses replaced (the length is cut afterwards). */
  readonly clean: (name: string) => string;
}

const PROVIDER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** OpenAI and Anthropic: `^[a-zA-Z0-9_-]{1,64}$`. */
export const OPENAI_NAMES: NameRule = { valid: PROVIDER_NAME, clean: (name) => name.replace(/[^A-Za-z0-9_-]/g, '_') };

/** Gemini: a letter or `_` first, then letters, digits, `_`, `.`, `:` and `-`; 64 at most. */
export const GEMINI_NAMES: NameRule = {
  valid: /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/,
  clean: (name) => name.replace(/[^A-Za-z0-9_.:-]/g, '_').replace(/^(?=[^A-Za-z_])/, '_'),
};

/**
 * Gemini parameter (property) names: a letter or `_` first, then letters, digits and `_`; 64 at most. Applied
 * per object of an input schema (its property names are the set mapped), in the schema sent and on the way back.
 */
export const GEMINI_PROPERTY_NAMES: NameRule = {
  valid: GEMINI_PROPERTY_NAME,
  clean: (name) => name.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(?=[^A-Za-z_])/, '_'),
};

/** FNV-1a 32-bit as 8 hex digits: stable across runs and platforms, no crypto module needed. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

export interface ProviderNames {
  /** MCP name → provider name. */
  readonly toProvider: ReadonlyMap<string, string>;
  /** Provider name → MCP name. */
  readonly fromProvider: ReadonlyMap<string, string>;
}

/**
 * Provider names for a set of MCP tool names. A name the provider accepts is kept as it is (and reserved
 * first, so it never changes because of another tool). Any other name has its other characters replaced
 * by `_`; when that is longer than 64 characters or taken, it becomes its first 55 characters, `_` and a
 * hash of the MCP name. Collision-free by construction (checked; a counter breaks the rare hash tie).
 */
export function providerNames(names: Iterable<string>, rule: NameRule = OPENAI_NAMES): ProviderNames {
  const sorted = [...new Set(names)].sort();
  const toProvider = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of sorted) {
    if (!rule.valid.test(name)) continue;
    toProvider.set(name, name);
    taken.add(name);
  }
  for (const name of sorted) {
    if (toProvider.has(name)) continue;
    const cleaned = rule.clean(name);
    let candidate = cleaned.length <= 64 && cleaned.length > 0 && !taken.has(cleaned) ? cleaned : `${cleaned.slice(0, 55)}_${fnv1a(name)}`;
    for (let i = 2; taken.has(candidate); i++) candidate = `${cleaned.slice(0, 50)}_${fnv1a(`${name}#${i}`)}_${i}`.slice(-64);
    toProvider.set(name, candidate);
    taken.add(candidate);
  }
  return { toProvider, fromProvider: new Map([...toProvider].map(([mcp, provider]) => [provider, mcp])) };
}

/** Whether a provider (OpenAI, Gemini) accepts the name as it is. */
export function isProviderSafeName(name: string): boolean {
  return PROVIDER_NAME.test(name);
}
