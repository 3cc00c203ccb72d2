// The JSON Schema rule's clean outcomes, kept from one process to the next: `import openapi` checks what
// it wrote, and the `generate` that follows checks the same files again. For GitHub's description that
// second check was ~0.5 s of `generate`'s ~1.7 s (969 $defs, 1,223 input and 650 output schemas walked,
// bundled, checked against the meta-schema, their values checked).
//
// A cache, never a source of truth (as the run record, write/run-record.ts): keyed on the exact texts of
// the spec's files (the root, then its includes, by name) and mcpgen's own code (common/fingerprint.ts),
// so any edit, any other mcpgen build, means a full check. Only a check that found nothing at all is kept
// (a diagnostic has a position: always checked again). It lives in mcpgen's cache folder
// (common/cache-dir.ts); none, or anything unexpected in it, means a full check; writing is best-effort.
// One-shot runs only: `generate --watch` checks in full first, which fills its per-entry caches.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { mcpgenCacheDir, writeCacheFile } from '../../common/cache-dir.js';
import { sha256 } from '../../common/sha256.js';
import { generatorFingerprint } from '../../common/fingerprint.js';
import type { SourceFile } from '../../parse/source.js';
import { speedOff } from '../../common/speed-off.js';

// 2: keyed on each file's sha256, not its text.
const VERSION = 2;
/** Keys kept: a few specs, each in a few versions (an edit makes a new key and retires none). */
const KEEP = 32;
const FILE = 'schema-checks.json';

export interface SchemaCheckRecord {
  /** The files were found clean before, by this very mcpgen. */
  readonly clean: boolean;
  /** Remember that they are clean now. */
  save(): void;
}

/** The record for these files, or undefined when there is no cache folder (then every check is a full one). */
export function schemaCheckRecord(files: readonly SourceFile[]): SchemaCheckRecord | undefined {
  let dir: string | undefined;
  let key: string;
  try {
    dir = mcpgenCacheDir(process.cwd());
    if (dir === undefined || speedOff('schema-check-record')) return undefined;
    key = recordKey(files);
  } catch {
    return undefined;
  }
  const path = join(dir, FILE);
  return {
    clean: readKeys(path).includes(key),
    save: () => saveKey(path, key),
  };
}

/** Of each file's digest (the one the run record takes too: common/sha256.ts hashes a large text once). */
function recordKey(files: readonly SourceFile[]): string {
  const hash = createHash('sha256').update(`${VERSION}\0${generatorFingerprint()}\0`);
  for (const f of files) hash.update(`${f.file}\0${sha256(f.text)}\0`);
  return hash.digest('hex');
}

function readKeys(path: string): string[] {
  try {
    const r = JSON.parse(readFileSync(path, 'utf8')) as { version?: unknown; keys?: unknown };
    return r.version === VERSION && Array.isArray(r.keys) ? r.keys.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

function saveKey(path: string, key: string): void {
  try {
    const keys = [key, ...readKeys(path).filter((k) => k !== key)].slice(0, KEEP);
    writeCacheFile(path, JSON.stringify({ version: VERSION, keys }));
  } catch {
    // a read-only or full cache only costs the next run its shortcut
  }
}
