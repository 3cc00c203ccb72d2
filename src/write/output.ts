// What `generate` changes on disk, decided before anything is touched, then written per package through
// the crash-safe folder switch (switch.ts). Only files named in a manifest of mcpgen's (manifest.ts)
// are ever removed, and only in the folders of the servers this run generates.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { EnvironmentError } from '../errors.js';
import { displayPath } from '../load/spec-files.js';
import { portablePath } from '../common/portable-path.js';
import { writeFilesAtomically } from './atomic.js';
import { environmentError, shown } from './fs-ops.js';
import { MANIFEST_FILE, MANIFEST_VERSION, parseManifest, renderManifest, sha256, type Manifest, type ManifestEntry } from './manifest.js';
import { abandon, commitPackage, committed, leftovers, recoverSwitch, stagePackage, switchingPackage, type PackageChange } from './switch.js';
import { isDir, JOURNAL_FILE, recoverPackage, STAGING_DIR } from './transaction.js';

export interface OutputFile {
  readonly path: string;
  readonly content: string;
  readonly kind: 'generated' | 'scaffold';
}

export interface OutputPackage {
  /** Absolute directory of one server's output. */
  readonly dir: string;
  readonly server: string;
  /** The root spec it comes from, relative to the project folder (forward slashes), as banners show it. */
  readonly spec: string;
  readonly files: readonly OutputFile[];
  /**
   * The handlers file main.ts imports. Inside the folder it is `handlers.ts`, a scaffold among `files`;
   * elsewhere (config `handlers`) it is written here once when missing and otherwise never touched.
   */
  readonly handlers?: { readonly path: string; readonly content: string };
  /** Each handler method of the spec → its stub, to print the ones a spec gained. */
  readonly methods?: ReadonlyMap<string, string>;
}

export interface PackagePlan extends PackageChange {
  readonly unchanged: readonly string[];
  readonly kept: readonly string[];
  readonly edited: readonly string[];
  /** Handlers files this package used before (previous manifest), absolute; filtered in planOutput. */
  readonly previousHandlers: readonly string[];
  readonly gained?: GainedMethods;
  /** A handlers file outside the folder to write once (absolute path → stub). */
  readonly scaffolds: ReadonlyMap<string, string>;
  /** Absolute path → sha256 of each generated file and the manifest, as the plan leaves them. */
  readonly hashes: ReadonlyMap<string, string>;
}

/** Handler methods a spec gained since the last run that its handlers file does not mention yet. */
export interface GainedMethods {
  readonly server: string;
  readonly handlers: string;
  readonly stubs: readonly string[];
  /** Methods the spec had at the last run and no longer declares (tool renamed or deleted) that the handlers file still names. */
  readonly dropped: readonly string[];
}

export interface OutputPlan {
  readonly packages: readonly PackagePlan[];
  /** Absolute path → sha256 of each generated file and manifest as the plan leaves them (the run record's). */
  readonly hashes: ReadonlyMap<string, string>;
  /** Absolute path → content, over all packages (manifests included). */
  readonly write: ReadonlyMap<string, string>;
  /** Files an earlier run generated that no current spec produces. */
  readonly remove: readonly string[];
  readonly unchanged: readonly string[];
  /** Scaffold files that already exist: the user's, left alone. */
  readonly kept: readonly string[];
  /** Files an earlier run generated, no longer produced, but changed since: the user's now, left alone. */
  readonly edited: readonly string[];
  /** What a crashed run left (journals, staging folders, temp files). */
  readonly leftovers: readonly string[];
  /** Handlers files outside the package folders to create (absolute path → stub); never overwritten. */
  readonly scaffolds: ReadonlyMap<string, string>;
  /** Handlers files an earlier run used that no server of this run uses (spec, `out` or config change). */
  readonly unusedHandlers: readonly string[];
  readonly gained: readonly GainedMethods[];
}

/** What `generate` would do. Reads only; throws EnvironmentError for a folder or file in the way. */
/** `projectDir`: what manifests' spec paths are relative to; given, a folder whose spec file is gone has its handlers file reported unused. */
export function planOutput(outDir: string, packages: readonly OutputPackage[], projectDir?: string): OutputPlan {
  let existing = resolve(outDir);
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  if (!isDir(existing)) {
    throw new EnvironmentError(`cannot write into ${shown(outDir)}: ${existing === resolve(outDir) ? 'it exists and' : `${shown(existing)} exists and`} is not a directory`);
  }
  const plans = packages.map(planPackage);
  const ours = new Set(packages.map((p) => resolve(p.dir)));
  const specs = new Set(packages.map((p) => p.spec));
  const orphaned: string[] = [];
  // A server renamed in its spec leaves a folder whose manifest names one of this run's specs: retire it.
  for (const dir of childDirs(outDir)) {
    if (ours.has(dir)) continue;
    const manifest = readManifest(dir);
    if (manifest !== undefined && specs.has(manifest.spec)) plans.push(retirePackage(dir, manifest));
    // Its spec was deleted: the folder stays (a subset run must not retire others), its handlers are unused.
    else if (manifest !== undefined && projectDir !== undefined && !existsSync(resolve(projectDir, manifest.spec))) orphaned.push(...previousHandlers(dir, manifest));
  }
  const all = <K extends 'unchanged' | 'kept' | 'edited'>(key: K) => plans.flatMap((p) => p[key]);
  const inUse = new Set(packages.map((p) => handlersPath(resolve(p.dir), p)));
  // A package folder new to this run whose handlers file does not exist yet: an `out:` change (or a copy)
  // may have left the implemented handlers of the same spec in another output folder of the project.
  const fresh = packages.filter((p) => readManifest(resolve(p.dir)) === undefined && !existsSync(handlersPath(resolve(p.dir), p)));
  if (fresh.length > 0 && projectDir !== undefined) {
    const wanted = new Set(fresh.map((p) => p.spec));
    for (const dir of manifestDirs(projectDir, ours)) {
      const manifest = readManifest(dir);
      if (manifest !== undefined && wanted.has(manifest.spec)) orphaned.push(...previousHandlers(dir, manifest));
    }
  }
  return {
    packages: plans,
    hashes: new Map(plans.flatMap((p) => [...p.hashes])),
    write: new Map(plans.flatMap((p) => [...p.write].map(([name, content]) => [join(p.dir, name), content] as const))),
    remove: plans.flatMap((p) => p.remove.map((name) => join(p.dir, name))),
    unchanged: all('unchanged'),
    kept: all('kept'),
    edited: all('edited'),
    leftovers: mcpgenDirs(outDir, ours).flatMap(leftovers),
    scaffolds: new Map(plans.flatMap((p) => [...p.scaffolds])),
    unusedHandlers: [...new Set([...plans.flatMap((p) => p.previousHandlers), ...orphaned])].filter((f) => !inUse.has(f) && existsSync(f)).sort(),
    gained: plans.flatMap((p) => (p.gained === undefined ? [] : [p.gained])),
  };
}

function planPackage(pkg: OutputPackage): PackagePlan {
  const dir = resolve(pkg.dir);
  if (existsSync(dir) && !isDir(dir)) throw new EnvironmentError(`cannot write into ${shown(dir)}: it exists and is not a directory`);
  const previous = readManifest(dir);
  const write = new Map<string, string>();
  const unchanged: string[] = [];
  const kept: string[] = [];
  const entries: Record<string, ManifestEntry> = {};
  const hashes = new Map<string, string>();
  for (const f of pkg.files) {
    const abs = join(dir, f.path);
    if (f.kind === 'scaffold') {
      entries[f.path] = { kind: 'scaffold' };
      if (readFileIfAny(abs) !== undefined) kept.push(abs);
      else write.set(f.path, f.content);
      continue;
    }
    // Bytes, not text: decoding the folder's files as UTF-8 cost more than reading them (a one-tool edit of
    // 1,000 tools under --watch: 3.6 MB, ~21 of ~27 ms), and a Buffer is hashed without another encoding.
    const bytes = Buffer.from(f.content);
    const hash = sha256(bytes);
    entries[f.path] = { kind: 'generated', sha256: hash };
    hashes.set(abs, hash);
    if (holds(abs, bytes)) unchanged.push(abs);
    else write.set(f.path, f.content);
  }
  const { remove, edited } = staleFiles(dir, previous, entries);
  const handlers = handlersPath(dir, pkg);
  const external = pkg.handlers !== undefined && handlers !== join(dir, 'handlers.ts');
  const scaffolds = new Map<string, string>();
  if (external && readFileIfAny(handlers) === undefined) scaffolds.set(handlers, pkg.handlers!.content);
  const manifest = renderManifest({
    version: MANIFEST_VERSION,
    server: pkg.server,
    spec: pkg.spec,
    files: entries,
    ...(external ? { handlers: portablePath(dir, handlers) } : {}),
    ...(pkg.methods !== undefined ? { methods: [...pkg.methods.keys()] } : {}),
  });
  hashes.set(join(dir, MANIFEST_FILE), sha256(manifest));
  if (readFileIfAny(join(dir, MANIFEST_FILE)) === manifest) unchanged.push(join(dir, MANIFEST_FILE));
  else write.set(MANIFEST_FILE, manifest); // last: moved into place after the files it describes
  const gained = gainedMethods(pkg, previous, handlers);
  return { dir, write, remove, unchanged, kept, edited, previousHandlers: previousHandlers(dir, previous), scaffolds, hashes, ...(gained ? { gained } : {}) };
}

/** The handlers file a package's main.ts imports (absolute). */
function handlersPath(dir: string, pkg: OutputPackage): string {
  return resolve(pkg.handlers?.path ?? join(dir, 'handlers.ts'));
}

/** The handlers file an earlier run's manifest says this folder used, if any. */
function previousHandlers(dir: string, previous: Manifest | undefined): string[] {
  if (previous?.handlers !== undefined) return [resolve(dir, previous.handlers)];
  return previous?.files['handlers.ts']?.kind === 'scaffold' ? [join(dir, 'handlers.ts')] : [];
}

/**
 * Methods the spec has now and did not have at the last run, which the (existing) handlers file does not
 * name anywhere yet: the compiler would say so at build time, `generate` says it now with the stub.
 */
function gainedMethods(pkg: OutputPackage, previous: Manifest | undefined, handlers: string): GainedMethods | undefined {
  if (pkg.methods === undefined || previous?.methods === undefined) return undefined;
  const text = readFileIfAny(handlers);
  if (text === undefined) return undefined;
  const before = new Set(previous.methods);
  const names = (method: string, inText = text) => new RegExp(`\\b${method}\\b`).test(inText);
  const stubs = [...pkg.methods].filter(([method, stub]) => stub !== '' && !before.has(method) && !names(method)).map(([, stub]) => stub);
  // A method named only in a comment (the import's scaffold lists the operations it proxies) is no handler to remove.
  const code = withoutComments(text);
  const dropped = previous.methods.filter((method) => !pkg.methods!.has(method) && names(method, code));
  return stubs.length === 0 && dropped.length === 0 ? undefined : { server: pkg.server, handlers, stubs, dropped };
}

/** The text without `//` and `/* … *\/` comments (strings kept as they are, so a `//` in one is no comment). */
function withoutComments(text: string): string {
  return text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g, (m) => (m.startsWith('/') ? '' : m));
}

/** A package no spec of this run produces any more: its generated files and manifest go; the user's stay. */
function retirePackage(dir: string, manifest: Manifest): PackagePlan {
  const { remove, edited } = staleFiles(dir, manifest, {});
  return { dir, write: new Map(), remove: [...remove, MANIFEST_FILE], unchanged: [], kept: [], edited, removeDirIfEmpty: true, previousHandlers: previousHandlers(dir, manifest), scaffolds: new Map(), hashes: new Map() };
}

/** Generated files of the previous manifest that are no longer produced; removed only if untouched since. */
function staleFiles(dir: string, previous: Manifest | undefined, now: Readonly<Record<string, ManifestEntry>>) {
  const remove: string[] = [];
  const edited: string[] = [];
  for (const [name, entry] of Object.entries(previous?.files ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (entry.kind !== 'generated' || Object.hasOwn(now, name)) continue;
    const current = readFileIfAny(join(dir, name));
    if (current === undefined) continue;
    if (sha256(current) === entry.sha256) remove.push(name);
    else edited.push(join(dir, name));
  }
  return { remove, edited };
}

function readManifest(dir: string): Manifest | undefined {
  const path = join(dir, MANIFEST_FILE);
  const text = readFileIfAny(path);
  return text === undefined ? undefined : parseManifest(text, shown(path));
}

/** Whether the file at `path` has exactly `bytes` (false when missing); a size that differs answers unread. */
function holds(path: string, bytes: Buffer): boolean {
  const size = fileSize(path);
  if (size !== bytes.length) return false;
  try {
    return readFileSync(path).equals(bytes);
  } catch (e) {
    if (missing(e)) return false; // removed since the stat
    throw environmentError('read', path, e);
  }
}

/** A file's text, undefined when there is none; a folder where a file belongs is an environment error. */
function readFileIfAny(path: string): string | undefined {
  if (fileSize(path) === undefined) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if (missing(e)) return undefined; // removed since the stat
    throw environmentError('read', path, e);
  }
}

const missing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';

/** The size of the file at `path`, undefined when there is none; a folder there is an environment error. */
function fileSize(path: string): number | undefined {
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw new EnvironmentError(`cannot write ${shown(path)}: it is a directory`);
    return stat.size;
  } catch (e) {
    if (missing(e)) return undefined;
    throw environmentError('read', path, e);
  }
}

/** Folders in `outDir`, not counting the ones a switch in progress keeps beside a package folder. */
function childDirs(outDir: string): string[] {
  if (!isDir(outDir)) return [];
  try {
    return readdirSync(outDir, { withFileTypes: true }).filter((e) => e.isDirectory() && switchingPackage(e.name) === undefined).map((e) => resolve(outDir, e.name)).sort();
  } catch (e) {
    throw environmentError('read directory', outDir, e);
  }
}

/**
 * Folders of the project holding an mcpgen manifest, other than `skip`: a bounded walk (depth 6, 5,000
 * folders) that leaves out node_modules and dot folders, run only when a package folder is new.
 */
function manifestDirs(projectDir: string, skip: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const queue: { dir: string; depth: number }[] = [{ dir: resolve(projectDir), depth: 0 }];
  for (let seen = 0; queue.length > 0 && seen < 5000; seen++) {
    const { dir, depth } = queue.shift()!;
    if (!skip.has(dir) && existsSync(join(dir, MANIFEST_FILE))) found.push(dir);
    if (depth >= 6) continue;
    try {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) queue.push({ dir: join(dir, e.name), depth: depth + 1 });
      }
    } catch {
      // unreadable folders hold nothing we could report
    }
  }
  return found.sort();
}

/**
 * This run's package folders and every folder next to them that mcpgen manages (manifest, an older
 * version's journal or staging folder inside, a switch in progress beside it — the folder may be gone).
 */
function mcpgenDirs(outDir: string, packageDirs: ReadonlySet<string>): string[] {
  const marks = [MANIFEST_FILE, JOURNAL_FILE, STAGING_DIR];
  const found = new Set(packageDirs);
  for (const dir of childDirs(outDir)) if (marks.some((m) => existsSync(join(dir, m)))) found.add(dir);
  for (const name of isDir(outDir) ? readdirSync(outDir) : []) {
    const pkg = switchingPackage(name);
    if (pkg !== undefined) found.add(resolve(outDir, pkg));
  }
  return [...found].sort();
}

/** Finish or undo what crashed runs left; the folders recovered. Runs before planning. */
export function recoverOutput(outDir: string, packageDirs: readonly string[]): string[] {
  // A switch first: it may bring the package folder back; then what an older version left inside.
  return mcpgenDirs(outDir, new Set(packageDirs.map((d) => resolve(d)))).filter((d) => [recoverSwitch(d), recoverPackage(d)].includes(true));
}

/**
 * Write the plan: stage every package first (a failure there leaves every package as it was), then
 * switch them one by one. Each package folder is all old or all new at every instant, crash or not.
 */
export function applyPlan(plan: OutputPlan): void {
  const changes = plan.packages.filter((p) => p.write.size > 0 || p.remove.length > 0);
  const pending = [...changes];
  const undo = () => {
    for (const c of pending) if (!committed(c.dir)) tryAbandon(c);
  };
  try {
    for (const c of changes) stagePackage(c);
    while (pending.length > 0) {
      commitPackage(pending[0]!);
      pending.shift();
    }
  } catch (e) {
    undo();
    throw e;
  }
  // Handlers files outside the package folders: after the packages, only where none exists (never overwritten).
  const missing = new Map([...plan.scaffolds].filter(([path]) => !existsSync(path)));
  if (missing.size > 0) writeFilesAtomically(missing);
}

function tryAbandon(change: PackageChange): void {
  try {
    abandon(change);
  } catch {
    // the first error is the one worth reporting; the next run removes what is left
  }
}

export interface StaleFile {
  /** Relative to cwd. */
  readonly file: string;
  readonly reason: string;
}

/** What makes the checked-in output stale, file by file (relative to cwd), sorted. */
export function staleEntries(plan: OutputPlan, cwd: string): StaleFile[] {
  const rel = (f: string) => displayPath(f, cwd);
  return [
    ...[...plan.write.keys()].map((f) => ({ file: rel(f), reason: existsSync(f) ? 'changed' : 'missing' })),
    ...plan.remove.map((f) => ({ file: rel(f), reason: 'no longer generated' })),
    ...plan.leftovers.map((f) => ({ file: rel(f), reason: 'left by an interrupted run; `mcpgen generate` cleans it up' })),
  ].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** Paths (relative to cwd) that make the checked-in output stale. */
export function staleList(plan: OutputPlan, cwd: string): string[] {
  return staleEntries(plan, cwd).map((s) => `${s.file} (${s.reason})`).sort();
}
