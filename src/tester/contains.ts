// What "the answer contains the example's expected part" means: objects key by key (keys the example does
// not name may hold anything), arrays item by item with the same length, other values equal.
import { formatPath } from '../diagnostics/diagnostic.js';

type Path = (string | number)[];

/** Where `actual` first fails to contain `expected`, as one line naming the place; undefined when it does. */
export function missingPart(expected: unknown, actual: unknown, path: Path): string | undefined {
  const at = formatPath(path);
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at} is ${shown(actual)}, the example expects a list of ${expected.length}`;
    if (actual.length !== expected.length) return `${at} has ${actual.length} item(s), the example expects ${expected.length}`;
    for (let i = 0; i < expected.length; i++) {
      const miss = missingPart(expected[i], actual[i], [...path, i]);
      if (miss !== undefined) return miss;
    }
    return undefined;
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return `${at} is ${shown(actual)}, the example expects an object`;
    for (const [key, value] of Object.entries(expected)) {
      if (!Object.hasOwn(actual, key)) return `${formatPath([...path, key])} is missing; the example expects ${shown(value)}`;
      const miss = missingPart(value, (actual as Record<string, unknown>)[key], [...path, key]);
      if (miss !== undefined) return miss;
    }
    return undefined;
  }
  return expected === actual ? undefined : `${at} is ${shown(actual)}, the example expects ${shown(expected)}`;
}

function shown(v: unknown): string {
  if (v === undefined) return 'absent';
  const s = JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}
