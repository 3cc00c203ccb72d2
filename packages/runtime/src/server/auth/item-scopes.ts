// Scopes per tool, resource, resource template and prompt: what a parsed JSON-RPC body asks for, checked
// against the caller's token before any handler runs (403 insufficient_scope, every needed scope named).
import { matchUriTemplate } from '../../shared/uri-template.js';
import type { ServerDefinition } from '../core/definition.js';
import type { AuthPrincipal } from '../core/principal.js';

/** Scopes a token lacks among `needed`. */
export function missingScopes(needed: readonly string[], granted: readonly string[]): string[] {
  return needed.filter((s) => !granted.includes(s));
}

export interface ItemScopes {
  /** Whether scopes beyond the required ones are declared per item (the body must be read to check them). */
  readonly perItemScopes: boolean;
  /** The scopes of the first message in `body` whose token lacks one of them (all named in the 403), else undefined. */
  unmet(body: unknown, principal: AuthPrincipal): readonly string[] | undefined;
}

export function itemScopes(def: ServerDefinition): ItemScopes {
  const tools = new Map(def.tools.map((t) => [t.definition.name, t.scopes ?? []]));
  const resources = new Map(def.resources.map((r) => [r.definition.uri, r.scopes ?? []]));
  const templates = def.resourceTemplates.filter((t) => (t.scopes ?? []).length > 0).map((t) => ({ template: t.definition.uriTemplate, scopes: t.scopes ?? [] }));
  const prompts = new Map(def.prompts.map((p) => [p.definition.name, p.scopes ?? []]));
  const perItemScopes = [...tools.values(), ...resources.values(), ...templates.map((t) => t.scopes), ...prompts.values()].some((s) => s.length > 0);

  /** Every scope the operation needs (listed whole in the challenge), or [] when it needs none beyond the required. */
  function neededFor(message: unknown): readonly string[] {
    if (typeof message !== 'object' || message === null) return [];
    const { method, params } = message as { method?: unknown; params?: { name?: unknown; uri?: unknown } };
    if (method === 'tools/call' && typeof params?.name === 'string') return tools.get(params.name) ?? [];
    if (method === 'prompts/get' && typeof params?.name === 'string') return prompts.get(params.name) ?? [];
    if (method === 'resources/read' && typeof params?.uri === 'string') {
      const fixed = resources.get(params.uri);
      if (fixed !== undefined) return fixed;
      const uri = params.uri;
      return templates.find((t) => matchUriTemplate(t.template, uri) !== null)?.scopes ?? [];
    }
    return [];
  }

  function unmet(body: unknown, principal: AuthPrincipal): readonly string[] | undefined {
    for (const message of Array.isArray(body) ? body : [body]) {
      const needed = neededFor(message);
      if (needed.length === 0) continue;
      if (missingScopes(needed, principal.scopes).length > 0) return needed;
    }
    return undefined;
  }

  return { perItemScopes, unmet };
}
