// The record of the last clean `generate` run: its inputs (spec files and includes, the config file, the
// generator's own code, templates and schemas, the options) and the hash of every output it left. When
// none of the inputs changed and every output still has the recorded bytes, a full run would produce the
// same files again, so `generate` (and `generate --check`) answer from the record without loading the
// validators, the model, the emitters or ts-morph: the commonest build-step call becomes a few file reads.
//
// It is a cache, never a source of truth: it lives outside the output (node_modules/.cache/mcpgen, or
// $MCPGEN_CACHE_DIR), anything unexpected in it means "not current" and a full run, and writing it is
// best-effort. The committed manifest (manifest.ts) is untouched, so generated output stays byte-identical.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { expandGlob } from '../load/glob.js';
import { mcpgenCacheDir, writeCacheFile } from '../common/cache-dir.js';
import { generatorFingerprint } from '../common/fingerprint.js';
import { displayPath } from '../common/portable-path.js';
import { sha256 } from './manifest.js';
import { leftovers } from './switch.js';
import { speedOff } from '../common/speed-off.js';

export const RECORD_VERSION = 2;

/** Everything besides file contents that decides what a run writes. */
export interface RunKey {
  readonly cwd: string;
  readonly out: string;
  readonly projectDir: string;
  readonly configDir: string | undefined;
  /** Root spec files, absolute, in command order. */
  readonly specs: readonly string[];
  /** Config `packageFiles` and `handlers` (absolute): where and what the run writes. */
  readonly packageFiles?: boolean;
  readonly handlers?: string | undefined;
}

/** An `include:` glob and what it matched (absolute paths, sorted): a new matching file makes a run stale. */
export interface IncludeGlob {
  readonly pattern: string;
  readonly dir: string;
  readonly matches: readonly string[];
}

export interface RunRecord {
  readonly version: number;
  /** sha256 of the RunKey and the generator's fingerprint. */
  readonly key: string;
  /** Absolute path → sha256 of every file the run read (root specs, includes, config). */
  readonly inputs: Readonly<Record<string, string>>;
  readonly globs: readonly IncludeGlob[];
  /** Absolute path → digest of an embedded file or folder (MCP Apps views, skills folders): pathDigest. */
  readonly embedded: Readonly<Record<string, string>>;
  /** Absolute path → sha256 of a generated file, or null for a scaffold file (it only has to exist). */
  readonly outputs: Readonly<Record<string, string | null>>;
  /** The folders inside the output directory, sorted: a new one may be a server to retire. */
  readonly dirs: readonly string[];
  /** What the run printed: its spec files (display names) and diagnostics (warnings only). */
  readonly files: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

/** What a current run reports, as a full run would. */
export interface CurrentRun {
  readonly record: RunRecord;
  /** File texts by display name, for code frames of recorded warnings. */
  readonly sources: ReadonlyMap<string, string>;
  readonly unchanged: number;
  readonly kept: number;
}

// Here for the modules that have always imported it from the run record; it lives in common/.
export { generatorFingerprint };

export function recordKey(key: RunKey): string {
  return sha256(JSON.stringify({ version: RECORD_VERSION, fingerprint: generatorFingerprint(), ...key, configDir: key.configDir ?? null }));
}

/**
 * Where the record of runs with this key lives: $MCPGEN_CACHE_DIR, else the nearest node_modules/.cache
 * above the project (the place build tools share), else nowhere (no record: every run is a full one).
 */
export function recordPath(key: RunKey): string | undefined {
  const dir = mcpgenCacheDir(key.projectDir);
  if (dir === undefined) return undefined;
  const id = sha256(JSON.stringify({ ...key, configDir: key.configDir ?? null })).slice(0, 24);
  return join(dir, `run-${id}.json`);
}

/** The recorded run, when every input and output is still as recorded; otherwise undefined (never throws). */
export function currentRun(key: RunKey): CurrentRun | undefined {
  if (speedOff('run-record')) return undefined;
  try {
    return recordedRun(key);
  } catch {
    return undefined; // a cache that cannot be read means a full run, never a failed one
  }
}

function recordedRun(key: RunKey): CurrentRun | undefined {
  const path = recordPath(key);
  if (path === undefined) return undefined;
  const record = readRecord(path);
  if (record === undefined || record.key !== recordKey(key)) return undefined;
  const sources = new Map<string, string>();
  // Bytes are hashed, and decoded only once they match: a changed input (every --watch run) costs no decoding.
  for (const [file, hash] of Object.entries(record.inputs)) {
    const bytes = bytesIfAny(file);
    if (bytes === undefined || sha256(bytes) !== hash) return undefined;
    sources.set(displayPath(file, key.cwd), bytes.toString('utf8'));
  }
  for (const g of record.globs) {
    if (!sameList(globMatches(g), g.matches)) return undefined;
  }
  for (const [path, digest] of Object.entries(record.embedded)) {
    if (pathDigest(path) !== digest) return undefined;
  }
  let unchanged = 0;
  let kept = 0;
  for (const [file, hash] of Object.entries(record.outputs)) {
    if (hash === null) {
      if (!existsSync(file)) return undefined;
      kept++;
      continue;
    }
    const bytes = bytesIfAny(file);
    if (bytes === undefined || sha256(bytes) !== hash) return undefined;
    unchanged++;
  }
  const dirs = childDirs(key.out);
  if (!sameList(dirs, record.dirs)) return undefined;
  // A crashed run's journal or staging folder: a full run recovers it (or `--check` reports it).
  if (dirs.some((d) => leftovers(d).length > 0)) return undefined;
  return { record, sources, unchanged, kept };
}

export interface CleanRun {
  /** Texts of every file the run read, by display name (as CheckResult.sources holds them). */
  readonly sources: ReadonlyMap<string, string>;
  readonly globs: readonly Omit<IncludeGlob, 'matches'>[];
  /** Files and folders embedded into the output (CheckResult.inputPaths), absolute. */
  readonly embedded: readonly string[];
  /**
   * Every output file (absolute), as this run left it on disk; a generated file's sha256 when the run
   * knows it (the manifest's), else the file is read back.
   */
  readonly outputs: readonly { readonly path: string; readonly kind: 'generated' | 'scaffold'; readonly sha256?: string }[];
  readonly files: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Record a run that ended clean (no errors, nothing stale left, nothing edited). Best-effort. */
export function saveRun(key: RunKey, run: CleanRun): void {
  if (speedOff('run-record')) return;
  try {
    writeRecord(key, run);
  } catch {
    // a read-only or full cache only costs the next run its shortcut
  }
}

function writeRecord(key: RunKey, run: CleanRun): void {
  const path = recordPath(key);
  if (path === undefined) return;
  const record: RunRecord = {
    version: RECORD_VERSION,
    key: recordKey(key),
    inputs: Object.fromEntries([...run.sources].map(([name, text]) => [resolve(key.cwd, name), sha256(text)])),
    globs: run.globs.map((g) => ({ ...g, matches: globMatches(g) })),
    embedded: Object.fromEntries(run.embedded.map((path) => [path, pathDigest(path)])),
    outputs: {},
    dirs: childDirs(key.out),
    files: run.files,
    diagnostics: run.diagnostics,
  };
  const outputs: Record<string, string | null> = {};
  for (const { path: file, kind, sha256: known } of run.outputs) {
    if (kind === 'scaffold') {
      outputs[file] = null;
      continue;
    }
    const hash = known ?? hashOf(bytesIfAny(file));
    if (hash === undefined) return; // gone already: nothing worth recording
    outputs[file] = hash;
  }
  writeCacheFile(path, JSON.stringify({ ...record, outputs }));
}

function globMatches(g: Omit<IncludeGlob, 'matches'>): string[] {
  try {
    return expandGlob(g.pattern, g.dir).map((m) => resolve(g.dir, m)).sort();
  } catch {
    return [];
  }
}

function readRecord(path: string): RunRecord | undefined {
  const text = readIfAny(path);
  if (text === undefined) return undefined;
  try {
    const r = JSON.parse(text) as RunRecord;
    const ok = r.version === RECORD_VERSION && typeof r.key === 'string' && typeof r.inputs === 'object' && Array.isArray(r.globs) && typeof r.embedded === 'object' && typeof r.outputs === 'object' && Array.isArray(r.dirs) && Array.isArray(r.files) && Array.isArray(r.diagnostics);
    return ok ? r : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What an embedded path holds, as one hash: a file's bytes, or every file under a folder (relative path and
 * bytes, sorted, links and special files by kind only), or its absence. Bytes, not text: skill files may
 * be binary, and decoding would map different invalid sequences to the same text.
 */
export function pathDigest(path: string): string {
  const hash = createHash('sha256');
  const visit = (abs: string, rel: string): void => {
    const stat = lstatSync(abs, { throwIfNoEntry: false });
    if (stat === undefined) hash.update(`missing ${rel}\0`);
    else if (stat.isFile()) hash.update(`file ${rel}\0`).update(readFileSync(abs)).update('\0');
    else if (stat.isDirectory()) {
      hash.update(`dir ${rel}\0`);
      for (const name of readdirSync(abs).sort()) visit(join(abs, name), `${rel}/${name}`);
    } else hash.update(`other ${rel}\0`);
  };
  visit(path, '.');
  return hash.digest('hex');
}

function hashOf(bytes: Buffer | undefined): string | undefined {
  return bytes === undefined ? undefined : sha256(bytes);
}

/** A file's bytes: what the recorded sha256 of a text (its UTF-8) is compared with, without decoding it. */
function bytesIfAny(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

function readIfAny(path: string): string | undefined {
  return bytesIfAny(path)?.toString('utf8');
}

function childDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(dir, e.name)).sort();
  } catch {
    return [];
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
