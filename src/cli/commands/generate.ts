import { statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CONFIG_FILE, findConfig } from '../../load/config.js';
import { displayPath } from '../../load/spec-files.js';
import { hasErrors, sortDiagnostics } from '../../diagnostics/diagnostic.js';
import { resolveInputs } from '../../inputs.js';
import { currentRun, saveRun, type RunKey } from '../../write/run-record.js';
import { stringFlag, type Parsed } from '../args.js';
import { printDiagnostics, type Io } from '../report.js';
import type { CheckResult } from '../../pipeline.js';
import { runtimeDependencyWarning } from '../runtime-dependencies.js';
import { staleEntries, type StaleFile } from '../../write/output.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';

export async function runGenerate(args: Parsed, io: Io): Promise<number> {
  // Every file the last run that got that far read (specs, includes, the config): what --watch watches.
  // The config's folder always (a config may appear later); a run that failed early keeps the last list.
  let read: readonly string[] = [findConfig(io.cwd, stringFlag(args, 'config')) ?? resolve(io.cwd, CONFIG_FILE)];
  const once = () => generateOnce(args, io, (files) => (read = files));
  if (!args.flags.has('watch')) return once();
  (await import('../../pipeline.js')).enableIncremental();
  await once();
  return watchSpecs(io, once, () => read);
}

/** What the same process reported before this stage (`import openapi --generate`): printed with it, once. */
export type Prior = Pick<CheckResult, 'diagnostics' | 'files' | 'sources'>;
const NOTHING_PRIOR: Prior = { diagnostics: [], files: [], sources: new Map() };

/** One generate run over the specs `args` names (or the config's): what `mcpgen generate` runs. */
export async function generateOnce(args: Parsed, io: Io, onRead: (files: readonly string[]) => void = () => {}, prior: Prior = NOTHING_PRIOR): Promise<number> {
  const configPath = findConfig(io.cwd, stringFlag(args, 'config'));
  const inputs = resolveInputs(args.positional, io.cwd, stringFlag(args, 'config'));
  const format = (stringFlag(args, 'format') ?? inputs.config?.format ?? 'text') as 'text' | 'json';
  // One report (one JSON array on stdout) for the prior command's diagnostics and this run's.
  const print = (r: Prior) =>
    printDiagnostics(prior === NOTHING_PRIOR ? r : { diagnostics: sortDiagnostics([...prior.diagnostics, ...r.diagnostics]), files: [...prior.files, ...r.files], sources: new Map([...prior.sources, ...r.sources]) }, format, io);
  if (inputs.diagnostics.length > 0) {
    print({ diagnostics: inputs.diagnostics, files: [], sources: inputs.sources });
    return 1;
  }
  const out = stringFlag(args, 'out') ?? (inputs.config ? `${inputs.config.dir}/${inputs.config.out}` : 'generated');
  const check = args.flags.has('check');
  const config = inputs.config;
  const fromConfig: { projectDir?: string; configDir?: string; packageFiles?: boolean; handlers?: string } = config
    ? { projectDir: config.dir, configDir: config.dir, packageFiles: config.packageFiles, ...(config.handlers !== undefined ? { handlers: resolve(config.dir, config.handlers) } : {}) }
    : {};
  /** What this run read (the config, the specs, their includes): what --watch watches next. */
  const readFiles = (sources: ReadonlyMap<string, string>) => [...(configPath === undefined ? [] : [configPath]), ...inputs.files, ...[...sources.keys()].map((f) => resolve(io.cwd, f))];
  const warnMissing = () => {
    const missing = runtimeDependencyWarning(resolve(io.cwd, out), out);
    if (missing !== undefined) io.stderr(missing);
  };
  const key: RunKey = {
    cwd: resolve(io.cwd),
    out: resolve(io.cwd, out),
    projectDir: resolve(io.cwd, fromConfig.projectDir ?? '.'),
    configDir: fromConfig.configDir,
    specs: inputs.files,
    packageFiles: fromConfig.packageFiles ?? true,
    handlers: fromConfig.handlers,
  };
  // Inputs and outputs as the last clean run left them: answer without loading the pipeline (or ts-morph).
  const current = currentRun(key);
  if (current !== undefined) {
    print({ diagnostics: current.record.diagnostics, files: current.record.files, sources: current.sources });
    onRead(readFiles(current.sources));
    if (check) io.stderr(`generated output is current (${current.unchanged + current.kept} files)\n`);
    else io.stderr(`wrote 0 file(s), ${current.unchanged} unchanged, ${current.kept} scaffold file(s) kept, 0 removed\n`);
    warnMissing();
    return 0;
  }
  const { generate } = await import('../../pipeline.js');
  const result = await generate(inputs.files, io.cwd, { out, check, ...fromConfig });
  // JSON readers get the stale files in the same array as the spec diagnostics (text lists them below).
  const stale = check && format === 'json' && result.plan !== undefined ? staleEntries(result.plan, io.cwd).map(staleDiagnostic) : [];
  print({ ...result, diagnostics: [...result.diagnostics, ...stale] });
  onRead(readFiles(result.sources));
  if (hasErrors(result.diagnostics) || result.plan === undefined) return 1;
  const clean = result.stale.length === 0 && result.plan.edited.length === 0;
  if (clean) {
    const sources = new Map([...inputs.sources, ...result.sources]);
    saveRun(key, { sources, globs: result.includeGlobs, embedded: result.inputPaths, outputs: result.outputs, files: result.files, diagnostics: result.diagnostics });
  }
  if (check) {
    if (result.stale.length === 0) {
      io.stderr(`generated output is current (${result.plan.unchanged.length + result.plan.kept.length} files)\n`);
      warnMissing();
      return 0;
    }
    io.stderr(`generated output is stale; run \`npx mcpgen generate\`:\n${result.stale.map((s) => `  ${s}`).join('\n')}\n`);
    warnMissing();
    return 1;
  }
  for (const dir of result.recovered) io.stderr(`recovered what an interrupted earlier run left in ${dir}\n`);
  for (const f of result.plan.edited) io.stderr(`warning: ${displayPath(f, io.cwd)} is no longer generated but was edited since; left in place\n`);
  const freshStubs = [...result.plan.scaffolds.keys(), ...result.plan.packages.filter((p) => p.write.has('handlers.ts')).map((p) => join(p.dir, 'handlers.ts'))];
  for (const f of freshStubs) io.stderr(`wrote ${displayPath(f, io.cwd)}: a stub per handler method, yours from now on (never overwritten)\n`);
  for (const g of result.plan.gained) {
    if (g.dropped.length > 0) io.stderr(`warning: the ${g.server} spec no longer declares ${g.dropped.join(', ')} (tool renamed or deleted); remove ${g.dropped.length === 1 ? 'it' : 'them'} from \`handlers\` in ${displayPath(g.handlers, io.cwd)}\n`);
    if (g.stubs.length > 0) io.stderr(`the ${g.server} spec gained ${g.stubs.length} handler method(s); add to \`handlers\` in ${displayPath(g.handlers, io.cwd)}:\n${g.stubs.join('\n')}\n`);
  }
  for (const f of result.plan.unusedHandlers) {
    io.stderr(`warning: ${displayPath(f, io.cwd)} is a handlers file no spec uses any more (its spec was deleted, its server renamed, or \`handlers\` changed); move what you implemented to the server's current handlers file, then delete it\n`);
  }
  io.stderr(`wrote ${result.plan.write.size} file(s), ${result.plan.unchanged.length} unchanged, ${result.plan.kept.length} scaffold file(s) kept, ${result.plan.remove.length} removed\n`);
  warnMissing();
  return 0;
}

function staleDiagnostic(s: StaleFile): Diagnostic {
  return { code: 'MCPG102', severity: 'error', message: `generated output is stale: ${s.reason}; run \`npx mcpgen generate\``, file: s.file, line: 1, column: 1, path: '$' };
}

/** An editor's save is a burst of events (write, rename, chmod): one run after the burst. */
const WATCH_DEBOUNCE_MS = 20;

/** Names of inputs: specs, includes, the config, and what a spec embeds (MCP Apps views, SKILL.md files). */
const INPUT_NAME = /\.(ya?ml|json|html?|md)$/i;

/**
 * Regenerate whenever a spec, an include or the config changes; runs until interrupted. chokidar watches
 * each folder holding an input (not its subfolders), so atomic saves (editors, `sed -i`, `git checkout`
 * replace the file by rename), delete-then-create and new files an include glob may match are all heard.
 *
 * A run follows every event the file system reports for an input's name: chokidar's `raw` events, as
 * fs.watch gives them. Its `change` events are not enough: it drops a file's change that comes within
 * 50 ms of the one before (with no event after), so a save made the moment a short run ended went
 * unheard. One run at a time; an event during a run runs again after it.
 *
 * After every run the folders of its inputs are compared with those watched, by name and by identity (a
 * folder replaced as a whole leaves chokidar on the old one); when they differ, a new watcher replaces
 * the old one and, as changes made in between went unheard, a run follows.
 */
async function watchSpecs(io: Io, once: () => Promise<number>, inputs: () => readonly string[]): Promise<number> {
  const { watch } = await import('chokidar');
  type Watcher = ReturnType<typeof watch>;
  let watcher: Watcher | undefined;
  /** Watched folder → its identity when watched ('' when missing: chokidar then waits for it to appear). */
  let folders = new Map<string, string>();
  const relevant = (path: string) => INPUT_NAME.test(path) || folders.has(path);
  const heard = (path: string) => relevant(path) && rerun();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  const start = async () => {
    if (running) return void (again = true);
    running = true;
    again = false;
    await once().catch((e: unknown) => io.stderr(`mcpgen: ${(e as Error).message}\n`));
    const replaced = await arm();
    running = false;
    if (again || replaced) rerun();
  };
  const rerun = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void start(), WATCH_DEBOUNCE_MS);
  };
  /** Watch the folders of the last run's inputs; true when a new watcher replaced one that was watching. */
  const arm = async (): Promise<boolean> => {
    const next = new Map([...new Set(inputs().map((f) => dirname(f)))].map((d) => [d, identity(d)]));
    if (watcher !== undefined && sameEntries(next, folders)) return false;
    folders = next;
    // Closed first: chokidar shares one fs.watch per path between watchers, and the old one's may be on a
    // folder that is gone. What changes in between goes unheard, so the caller runs again.
    const replaced = watcher !== undefined;
    await watcher?.close();
    const fresh = watch([...next.keys()], { depth: 0, ignoreInitial: true, ignored: (path, stats) => stats?.isFile() === true && !relevant(path) });
    fresh.on('raw', (_event, name, details) => {
      const at = (details as { watchedPath?: string }).watchedPath ?? '';
      // A folder's watcher names an entry in it, or the folder itself when it is deleted or moved away.
      if (!folders.has(at)) heard(at);
      else if (!name || name === basename(at)) rerun();
      else heard(join(at, name));
    });
    // What chokidar finds by reading a folder: a watched folder that appears (or goes), a new input file.
    fresh.on('all', (event, path) => (event === 'addDir' || event === 'unlinkDir' ? folders.has(path) && rerun() : heard(path)));
    fresh.on('error', () => rerun());
    watcher = fresh;
    await new Promise<void>((ready) => fresh.once('ready', () => ready()));
    return replaced;
  };
  await arm();
  io.stderr(`watching ${[...folders.keys()].map((d) => displayPath(d, io.cwd) || '.').join(', ')} for spec changes (Ctrl-C to stop)\n`);
  return new Promise((resolve) => {
    process.once('SIGINT', () => {
      clearTimeout(timer);
      void watcher?.close().then(() => resolve(0));
    });
  });
}

/** A folder's device and inode ('' when it is missing): a folder replaced as a whole has a new one. */
function identity(dir: string): string {
  try {
    const s = statSync(dir);
    return `${s.dev}:${s.ino}`;
  } catch {
    return '';
  }
}

function sameEntries(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}
