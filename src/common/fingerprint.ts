// A hash of mcpgen's own code and packaged files: what, besides a spec, decides what a run finds and writes.
// The run record (write/run-record.ts) and the JSON Schema rule's record of clean checks
// (validate/rules/schema-check-record.ts) are both keyed on it.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The code root (dist/ or, under the test runner, src/) and the package root above it. */
const CODE_ROOT = fileURLToPath(new URL('../', import.meta.url));
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

let fingerprint: string | undefined;

/**
 * A hash of what decides the generator's output besides the specs: its compiled code, templates, packaged
 * schemas, its package.json and the runtime's (generated package.json names the runtime's version and
 * peers). Hashing the code, not only the version, keeps a development build with edited emitters honest.
 */
export function generatorFingerprint(): string {
  if (fingerprint !== undefined) return fingerprint;
  const hash = createHash('sha256');
  const add = (file: string) => hash.update(`${file}\0`).update(readFileSync(file)).update('\0');
  for (const file of filesUnder(CODE_ROOT, (n) => /\.(js|ts|mjs)$/.test(n) && !n.endsWith('.d.ts'))) add(file);
  for (const dir of ['templates', 'schema']) for (const file of filesUnder(join(PACKAGE_ROOT, dir), () => true)) add(file);
  add(join(PACKAGE_ROOT, 'package.json'));
  for (const runtime of ['@mcpgen/runtime', '@mcpgen/runtime-client']) add(createRequire(import.meta.url).resolve(`${runtime}/package.json`));
  fingerprint = hash.digest('hex');
  return fingerprint;
}

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && keep(e.name))
    .map((e) => join(e.parentPath ?? e.path, e.name))
    .sort();
}
