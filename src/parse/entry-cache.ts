// `generate --watch` only: the parsed value of each top-level list entry (a tool, a resource, a prompt…)
// by its source text. An entry whose text did not change keeps the very object it had last run, which
// is what lets validate, model and emit reuse their own per-entry work (they key on that identity).
// Off unless the watch turns it on: a one-shot run must not pay for the map.

let cache: Map<string, unknown> | undefined;
/** Entries looked up during the current run: what survives the next sweep. */
let used = new Map<string, unknown>();

/** Each file's skeleton's top-level values (`server`, `$defs`…) of the last run, with their JSON text. */
const skeletonValues = new Map<string, Map<string, { json: string; value: unknown }>>();

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
  const fresh = read(detached(missing.map((i) => texts[i]!).join('')));
  if (!Array.isArray(fresh) || fresh.length !== missing.length) return undefined;
  missing.forEach((i, n) => {
    entries[i] = fresh[n];
    storeEntry(texts[i]!, fresh[n]);
  });
  return entries;
}

/**
 * The skeleton's top-level values (all but the long lists) that equal last run's are replaced by last
 * run's objects, so `$defs` and `server` keep their identity too (tools bundle `$defs` entries by
 * reference, and emit tells a bundled copy from a tool's own `$defs` by that reference).
 */
export function keepUnchangedValues(file: string, record: Record<string, unknown>): void {
  const next = new Map<string, { json: string; value: unknown }>();
  const previous = skeletonValues.get(file);
  for (const [key, value] of Object.entries(record)) {
    if (value === null || typeof value !== 'object') continue;
    const json = JSON.stringify(value);
    const last = previous?.get(key);
    const kept = last !== undefined && last.json === json ? last.value : value;
    record[key] = kept;
    next.set(key, { json, value: kept });
  }
  skeletonValues.set(file, next);
}

/**
 * `mcpgen breaking`: the old version of a spec reads its skeleton against the new version's values (read
 * first), so `$defs` equal on both sides are the same objects, and an unchanged tool gets the new version's
 * very IR (model/tool-cache.ts) which the compare stage skips. No emit runs on these models (emit tells a
 * bundled copy by identity, why watch keeps each file's values apart).
 */
export function readAsVersionOf(oldFile: string, newFile: string): void {
  const values = skeletonValues.get(newFile);
  if (values !== undefined && !skeletonValues.has(oldFile)) skeletonValues.set(oldFile, values);
}

/**
 * A copy of a piece of a file's text that keeps no reference to the file's text. The parsed strings
 * (descriptions, names…) are slices of what is parsed: of a piece cut from the file (one edited entry
 * is one such slice), they would keep that run's whole text alive for as long as the entry is cached,
 * one whole text per edit (`mcpgen lsp` grew ~0.6 MB per keystroke on a 1,000-tool spec).
 */
function detached(piece: string): string {
  return Buffer.from(piece, 'utf8').toString('utf8');
}
