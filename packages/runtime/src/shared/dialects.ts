// The JSON Schema dialects a tool schema may name with `$schema`. MCP lets servers use other dialects
// than 2020-12 (the default) and asks for a clear error where one is unsupported. zod-to-JSON-Schema
// servers publish draft-07; ajv (build time) and @cfworker/json-schema (run time) know these three.
// The generator and the runtime both read this table, so `check` and the server agree.

/** The dialects by the names @cfworker/json-schema takes ('7' is draft-07). */
export type Dialect = '2020-12' | '2019-09' | '7';

/** Each dialect's canonical `$schema` URI, as sent on the wire when a spec names it. */
export const DIALECT_URIS: Readonly<Record<Dialect, string>> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '7': 'http://json-schema.org/draft-07/schema#',
};

/** A URI without its empty fragment (`…/draft-07/schema` and `…/draft-07/schema#` are one; ajv treats them so). */
function normalise(uri: string): string {
  return uri.replace(/#$/, '');
}

/** Newest first, for messages (an object with the key '7' would list it first). */
export const DIALECTS: readonly Dialect[] = ['2020-12', '2019-09', '7'];

const BY_URI: ReadonlyMap<string, Dialect> = new Map(Object.entries(DIALECT_URIS).map(([d, uri]) => [normalise(uri), d as Dialect]));

/**
 * The dialect a schema's root declares: 2020-12 when `$schema` is absent, undefined when it names a
 * dialect neither side supports (check reports MCPG110; the runtime never sees such a schema).
 */
export function dialectOf(schema: unknown): Dialect | undefined {
  if (typeof schema !== 'object' || schema === null || !('$schema' in schema)) return '2020-12';
  const uri = (schema as { $schema?: unknown }).$schema;
  return typeof uri === 'string' ? BY_URI.get(normalise(uri)) : undefined;
}
