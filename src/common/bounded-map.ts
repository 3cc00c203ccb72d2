// Caches of outcomes by schema text (validate/rules/json-schema.ts, examples.ts) live as long as the
// process: in `mcpgen lsp` and `generate --watch` that is a whole editing session, and every schema text
// ever typed would stay. A bounded map keeps the most recently used entries only.

/** How many entries a schema-text cache keeps: more than the distinct schema shapes of a large spec. */
export const SCHEMA_CACHE_ENTRIES = 2048;

/** A Map that forgets its least recently used entry once it holds more than `limit`. */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  override get(key: K): V | undefined {
    const value = super.get(key);
    if (value !== undefined) {
      // The most recently used go last: iteration order is insertion order.
      super.delete(key);
      super.set(key, value);
    }
    return value;
  }

  override set(key: K, value: V): this {
    super.delete(key);
    super.set(key, value);
    if (this.size > this.limit) super.delete(this.keys().next().value as K);
    return this;
  }
}
