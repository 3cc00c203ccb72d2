// `upstream:` may stand in the root spec and in its included files (the OpenAPI import writes it into a
// file of its own that the team's root spec includes): one section, merged key by key. The root's value
// wins (the team overrides what the import wrote); among included files the first wins and a later one
// with a different value is a conflict the upstream rule reports (MCPG119).
import type { SourceFile } from '../parse/source.js';
import type { RawSpecFile, RawUpstream, RawUpstreamScheme } from './spec-types.js';
import type { Located } from './located.js';

const SETTINGS = ['baseUrl', 'timeoutMs', 'maxBytes', 'retries', 'retryDelayMs', 'maxRetryDelayMs'] as const;

export interface MergedUpstream {
  /** The merged section (undefined: no file has one). */
  readonly value: RawUpstream;
  /** Where each kept setting and scheme stands: `baseUrl`, `security.<name>`. */
  readonly at: ReadonlyMap<string, Located<unknown>>;
  /** Every file's section, for rules that check each as written. */
  readonly sections: readonly Located<RawUpstream>[];
  /** A later included file giving a kept key another value. */
  readonly conflicts: readonly { readonly key: string; readonly kept: Located<unknown>; readonly other: Located<unknown> }[];
}

export function mergeUpstream(files: readonly SourceFile[]): MergedUpstream | undefined {
  const sections = files.flatMap((source) => {
    const value = (source.value as RawSpecFile).upstream;
    return value === undefined || value === null || typeof value !== 'object' ? [] : [{ value, source, path: ['upstream'] }];
  });
  if (sections.length === 0) return undefined;
  const at = new Map<string, Located<unknown>>();
  const conflicts: { key: string; kept: Located<unknown>; other: Located<unknown> }[] = [];
  const merged: Record<string, unknown> = {};
  const security: Record<string, RawUpstreamScheme> = {};
  // The root file comes first, so its values are kept before any include's: they win without a word.
  const take = (key: string, value: unknown, item: Located<unknown>, set: (v: unknown) => void): void => {
    const kept = at.get(key);
    if (kept === undefined) {
      at.set(key, item);
      set(value);
    } else if (kept.source !== files[0] && JSON.stringify(kept.value) !== JSON.stringify(value)) {
      conflicts.push({ key, kept, other: item });
    }
  };
  for (const section of sections) {
    for (const key of SETTINGS) {
      const value = section.value[key];
      if (value !== undefined) take(key, value, { value, source: section.source, path: ['upstream', key] }, (v) => (merged[key] = v));
    }
    for (const [name, scheme] of Object.entries(section.value.security ?? {})) {
      take(`security.${name}`, scheme, { value: scheme, source: section.source, path: ['upstream', 'security', name] }, (v) => (security[name] = v as RawUpstreamScheme));
    }
  }
  if (Object.keys(security).length > 0) merged.security = security;
  return { value: merged as RawUpstream, at, sections, conflicts };
}
