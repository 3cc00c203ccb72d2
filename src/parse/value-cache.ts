// The value of a large spec file an importer wrote, kept from one process to the next as JSON: `mcpgen
// import openapi` writes GitHub's 6.6 MB owned file from a value it holds, and the `generate` that follows
// (or any later run while that file is unchanged: an edit of the root's overrides leaves it as it is)
// read its YAML again, ~0.35 s; its JSON reads in ~50 ms. known-values.ts hands the value over within one
// process; this hands it to the next.
//
// A cache, never a source of truth (as the schema-check record, validate/rules/schema-check-record.ts):
// keyed on the text's sha256 and mcpgen's own code (common/fingerprint.ts: another YAML reader may read
// the text otherwise), kept only for a value that reads back from JSON as itself (knowValue says so) and
// that the text reads as (the writer's guarantee, test/import/yaml-spec.test.ts). Every other check of
// parseSource still runs on the text, and positions still come from it. In mcpgen's cache folder
// (common/cache-dir.ts); none, or anything unexpected in it, means the text is read; writing is best-effort.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { mcpgenCacheDir, writeCacheFile } from '../common/cache-dir.js';
import { generatorFingerprint } from '../common/fingerprint.js';
import { sha256 } from '../common/sha256.js';
import { speedOff } from '../common/speed-off.js';

/** Smaller texts read faster than a cache file is found. */
const LARGE = 1 << 20;
/** Values kept: a few imported descriptions; the oldest go first. */
const KEEP = 4;
const VERSION = 1;

function entryPath(text: string): string | undefined {
  const dir = mcpgenCacheDir(process.cwd());
  return dir === undefined ? undefined : join(dir, 'values', `${sha256(`${VERSION}\0${generatorFingerprint()}\0${sha256(text)}`)}.json`);
}

/** Keep `value` for `text`: only a large text, and only a value knowValue found JSON-exact. */
export function keepValue(text: string, value: unknown): void {
  if (text.length < LARGE || speedOff('value-cache')) return;
  try {
    const path = entryPath(text);
    if (path === undefined) return;
    writeCacheFile(path, JSON.stringify(value));
    const dir = dirname(path);
    // The others, newest first (this one stays whatever the clock says).
    const others = readdirSync(dir).filter((n) => n.endsWith('.json') && join(dir, n) !== path).map((n) => ({ path: join(dir, n), at: statSync(join(dir, n)).mtimeMs }));
    for (const old of others.sort((a, b) => b.at - a.at).slice(KEEP - 1)) rmSync(old.path, { force: true });
  } catch {
    // a read-only or full cache only costs the next run its shortcut
  }
}

/** The value kept for exactly this text, or undefined (read the text). */
export function keptValue(text: string): unknown {
  if (text.length < LARGE || speedOff('value-cache')) return undefined;
  try {
    const path = entryPath(text);
    return path === undefined ? undefined : (JSON.parse(readFileSync(path, 'utf8')) as unknown);
  } catch {
    return undefined;
  }
}
