// RFC 7396 JSON Merge Patch (it obsoletes RFC 7386 and keeps its algorithm), section 2:
//
//   define MergePatch(Target, Patch):
//     if Patch is an Object:
//       if Target is not an Object: Target = {}
//       for each Name/Value pair in Patch:
//         if Value is null: if Name exists in Target, remove the Name/Value pair from Target
//         else: Target[Name] = MergePatch(Target[Name], Value)
//       return Target
//     else: return Patch
//
// Written out rather than taken from npm: json-merge-patch, the one package with users, was last published
// in 2024 and brings fast-deep-equal for its diffing side, which nothing here needs.

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The patched copy; neither argument is changed (the target is a parsed file's value, which the caches
 * share). Keys the target has keep their place, new keys follow in the patch's order: same input, same
 * output. Keys are defined, never assigned, so a `__proto__` key stays a key.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Obj = {};
  if (isObject(target)) for (const [name, value] of Object.entries(target)) define(out, name, value);
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete out[name];
    else define(out, name, mergePatch(Object.hasOwn(out, name) ? out[name] : undefined, value));
  }
  return out;
}

function define(out: Obj, name: string, value: unknown): void {
  Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
}
