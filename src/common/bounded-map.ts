// Caches of outcomes by schema text (validate/rules/json-schema.ts, examples.ts) live as long as the
// process: in `mcpgen lsp` and `generate --watch` that is a whole editing session, and every schema text
// ever typed would stay. quick-lru keeps the most recently used entries only.
import QuickLRU from 'quick-lru';

/** How many entries a schema-text cache keeps: more than the distinct schema shapes of a large spec. */
export const SCHEMA_CACHE_ENTRIES = 2048;

/** A map that forgets its least recently used entries once it holds more than `limit`. */
export function boundedMap<K, V>(limit = SCHEMA_CACHE_ENTRIES): QuickLRU<K, V> {
  return new QuickLRU<K, V>({ maxSize: limit });
}
