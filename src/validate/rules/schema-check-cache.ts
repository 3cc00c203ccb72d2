// `generate --watch` and `breaking` (pipeline.ts enableIncremental): what last checked clean (no diagnostic at all), by the parsed object
// (parse/entry-cache.ts keeps a tool's objects while its text is unchanged): tools whose schemas passed
// checkJsonSchemas, schemas from which no `$ref` cycle is reachable, top-level entries nested within the
// limits (spec-format.ts). A clean result does not depend on
// where the tool stands in the file, only on the object and the spec's `$defs`, so each set is kept
// per `$defs`. Anything with a diagnostic is always checked again: its position moves
// with every edit above it.

import { ContextStores, objectCachesEnabled } from '../../common/context-stores.js';

type CleanSet = Pick<WeakSet<object>, 'has' | 'add'>;

/** By check, then by the `$defs` as JSON text. */
const sets = new Map<string, ContextStores<string, WeakSet<object>>>();
/** What a one-shot run gets: nothing is ever remembered. */
const NEVER: CleanSet = { has: () => false, add: () => NEVER as WeakSet<object> };

/** The set of objects found clean by the check `kind`, valid for these `$defs` (fresh when they changed). */
export function cleanUnderDefs(kind: 'tool schemas' | 'acyclic' | 'shallow entries', defs: ReadonlyMap<string, unknown>): CleanSet {
  if (!objectCachesEnabled()) return NEVER;
  let stores = sets.get(kind);
  if (stores === undefined) sets.set(kind, (stores = new ContextStores((a, b) => a === b, () => new WeakSet())));
  return stores.for(JSON.stringify([...defs]));
}
