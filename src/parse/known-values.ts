import { speedOff } from '../common/speed-off.js';
// A front end that wrote a spec text from a value it holds (`mcpgen import openapi` writes GitHub's 6.6 MB
// owned file from the spec object it built) and then checks the files with the pipeline hands the pair
// here first: parseSource takes the value for that exact text instead of reading it again. Reading it
// again was a third of the import's check (~0.3 s of js-yaml for GitHub's description). The writer's
// texts read back as the value they were written from (test/import/yaml-spec.test.ts checks it through
// this reader); everything else of parseSource still runs on the text (UTF-8, control characters), and
// `yaml` still parses it for the position of any diagnostic (lazySource), so a finding in an imported
// file points at the same file:line:col as before.
//
// Keyed by the text itself: another text (a file changed on disk between the write and the check) is read
// as usual. Holds the one pair until it is forgotten: the importer forgets it after its check.

const known = new Map<string, unknown>();

/**
 * The value `text` was written from, for the check that reads it back. Taken only when it is plain data
 * the YAML writer writes as itself (~10 ms over GitHub's owned value); else the text is read as usual.
 * True when it was taken and also reads back from JSON as itself (no -0, NaN or ±Infinity, which JSON
 * writes as 0 and null): what value-cache.ts may keep for the next process.
 */
export function knowValue(text: string, value: unknown): boolean {
  const shape = { json: true };
  if (!writtenAsItself(value, 0, shape)) return false;
  known.set(text, value);
  return shape.json;
}

/**
 * No undefined (js-yaml leaves such a key out and writes null for such a list item), no hole, function,
 * symbol or bigint, no object but plain objects and arrays (a Date would come back a string), no
 * `__proto__` key: what reads back as another value is refused, and so is a nesting too deep to follow.
 */
function writtenAsItself(value: unknown, depth: number, shape: { json: boolean }): boolean {
  if (value === null) return true;
  const type = typeof value;
  if (type === 'number') {
    if (!Number.isFinite(value) || Object.is(value, -0)) shape.json = false;
    return true;
  }
  if (type === 'string' || type === 'boolean') return true;
  if (type !== 'object' || depth > 1000) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!(i in value) || !writtenAsItself(value[i], depth + 1, shape)) return false;
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key of Object.keys(value as object)) {
    if (key === '__proto__' || !writtenAsItself((value as Record<string, unknown>)[key], depth + 1, shape)) return false;
  }
  return true;
}

export function forgetKnownValues(): void {
  known.clear();
}

/** The value handed in for exactly this text, or undefined (read the text). */
export function knownValue(text: string): unknown {
  return known.size === 0 || speedOff('known-values') ? undefined : known.get(text);
}
