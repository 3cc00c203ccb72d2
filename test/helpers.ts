import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { main } from '../src/cli/main.js';
import { check } from '../src/pipeline.js';
import { ROOT, tempDir } from './support/root.js';

export { ROOT, tempDir } from './support/root.js';

/** Run a spec given as text through the whole check pipeline, from a temp dir. */
export function checkText(text: string, extra: Record<string, string> = {}) {
  const dir = tempDir();
  writeFileSync(join(dir, 'spec.yaml'), text);
  for (const [name, content] of Object.entries(extra)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return check([join(dir, 'spec.yaml')], dir);
}

/** The CLI in-process, capturing output. */
export async function cli(argv: string[], cwd = ROOT) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { cwd, stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), color: false });
  return { code, stdout, stderr };
}

/** Equal as values and in key order and prototypes, all the way down (YAML values against yaml's toJS). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return false;
  return ka.every((k) => sameValue((a as Record<PropertyKey, unknown>)[k], (b as Record<PropertyKey, unknown>)[k]));
}
