// `generate --watch` only: tools whose schemas last checked clean (no diagnostic at all), by the parsed
// tool object (parse/entry-cache.ts keeps it while the tool's text is unchanged). A clean result does
// not depend on where the tool stands in the file, only on the tool and the spec's `$defs`, so the set
// is dropped whenever the `$defs` change. Tools with diagnostics are always checked again: their
// positions move with every edit above them.

let enabled = false;
let defsKey: string | undefined;
let clean = new WeakSet<object>();
/** What a one-shot run gets: nothing is ever remembered. */
const NEVER: Pick<WeakSet<object>, 'has' | 'add'> = { has: () => false, add: () => NEVER as WeakSet<object> };

export function enableSchemaCheckCache(): void {
  enabled = true;
}

/** The clean-tools set valid for these `$defs` (a fresh one when they changed since the last run). */
export function cleanToolSchemas(defs: ReadonlyMap<string, unknown>): Pick<WeakSet<object>, 'has' | 'add'> {
  if (!enabled) return NEVER;
  const key = JSON.stringify([...defs]);
  if (key !== defsKey) {
    defsKey = key;
    clean = new WeakSet();
  }
  return clean;
}
