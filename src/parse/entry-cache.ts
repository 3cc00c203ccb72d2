// `generate --watch` only: the parsed value of each top-level list entry (a tool, a resource, a prompt…)
// by its source text. An entry whose text did not change keeps the very object it had last run, which
// is what lets validate, model and emit reuse their own per-entry work (they key on that identity).
// Off unless the watch turns it on: a one-shot run must not pay for the map.

let cache: Map<string, unknown> | undefined;
/** Entries looked up during the current run: what survives the next sweep. */
let used = new Map<string, unknown>();

export function enableEntryCache(): void {
  cache ??= new Map();
}

export function entryCacheEnabled(): boolean {
  return cache !== undefined;
}

function cachedEntry(text: string): unknown {
  const value = cache?.get(text);
  if (value !== undefined) used.set(text, value);
  return value;
}

function storeEntry(text: string, value: unknown): void {
  if (cache === undefined || value === undefined) return;
  cache.set(text, value);
  used.set(text, value);
}

/** After a run: forget entries the run did not read (an edited entry's old text), so the cache stays one spec big. */
export function sweepEntryCache(): void {
  if (cache === undefined) return;
  cache = used;
  used = new Map();
}

/** --watch: entries whose text is cached keep their object; the others are parsed together as one piece. */
export function cachedEntries(texts: readonly string[], read: (piece: string) => unknown): unknown[] | undefined {
  const entries = texts.map(cachedEntry);
  const missing = texts.flatMap((_text, i) => (entries[i] === undefined ? [i] : []));
  if (missing.length === 0) return entries;
  const fresh = read(missing.map((i) => texts[i]!).join(''));
  if (!Array.isArray(fresh) || fresh.length !== missing.length) return undefined;
  missing.forEach((i, n) => {
    entries[i] = fresh[n];
    storeEntry(texts[i]!, fresh[n]);
  });
  return entries;
}
