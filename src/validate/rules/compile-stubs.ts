import { isObjectSchema, walkSchema } from '../../common/json-schema.js';
import type { JsonObjectSchema, JsonSchema } from '../spec-types.js';

/**
 * The bundled schema as the strict compile needs it: every spec `$defs` entry the bundle copied in is
 * replaced by `true`. Each spec def is compiled (and reported) once where it is written; compiling its
 * copy again inside every tool that reaches it made large descriptions (GitHub's 1,223 tools sharing
 * `repository`, `simple-user`, …) cost hours of ajv code generation for problems that were then
 * dropped (a copied def's findings are reported at its own place). ajv compiles a `$ref` target apart
 * (its data types are not the referrer's), so the referrer's own findings are the same either way.
 * A `$ref` that points inside a copied def, or not into this document at all, keeps the full bundle.
 */
export function withCopiedDefsStubbed(bundled: JsonObjectSchema, own: Readonly<Record<string, unknown>>): JsonObjectSchema {
  if (!isObjectSchema(bundled.$defs)) return bundled;
  const copied = Object.keys(bundled.$defs).filter((name) => !Object.hasOwn(own, name));
  if (copied.length === 0) return bundled;
  const { $defs: _all, ...rest } = bundled;
  const ownPart: JsonObjectSchema = Object.keys(own).length === 0 ? rest : { ...rest, $defs: { ...own } };
  const whole = new Set(copied.map((name) => `#/$defs/${name}`));
  let plain = true;
  walkSchema(ownPart, ({ schema }) => {
    if (!plain || !isObjectSchema(schema) || typeof schema.$ref !== 'string') return;
    const ref = schema.$ref;
    if (whole.has(ref)) return;
    const segment = ref.startsWith('#/$defs/') ? ref.slice('#/$defs/'.length).split('/')[0]! : undefined;
    // Into the document but not into a copied def (the root, an own def): unchanged by the stubs.
    plain = ref.startsWith('#') && (segment === undefined || Object.hasOwn(own, segment));
  });
  if (!plain) return bundled;
  const $defs: Record<string, JsonSchema> = Object.fromEntries([...Object.entries(own), ...copied.map((name) => [name, true])]) as Record<string, JsonSchema>;
  return { ...bundled, $defs };
}
