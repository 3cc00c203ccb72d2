import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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

/**
 * Regenerate whenever a spec, an include or the config changes; runs until interrupted. chokidar watches
 * each folder holding an input (not its subfolders): it hears atomic saves (editors, `sed -i`, `git
 * checkout` replace the file by rename), delete-then-create and new files an include glob may match.
 * After every run the folders of new inputs are added and those no input is in any more dropped.
 */
async function watchSpecs(io: Io, once: () => Promise<number>, inputs: () => readonly string[]): Promise<number> {
  const { watch } = await import('chokidar');
  let dirs = new Set<string>();
  // .html: MCP Apps views and SKILL.md files are embedded at generate time, so editing one regenerates too.
  const relevant = (path: string) => /\.(ya?ml|json|html?|md)$/i.test(path) || dirs.has(path);
  const watcher = watch([], { depth: 0, ignoreInitial: true, ignored: (path, stats) => stats?.isFile() === true && !relevant(path) });
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  // One run at a time. A change heard during a run, or one that no event announced (a save in two writes
  // within one tick of the file clock: chokidar compares mtimes and stays silent for the second), runs again.
  const start = () => {
    if (running) return void (again = true);
    running = true;
    const before = inputTexts(inputs());
    once()
      .catch((e: unknown) => io.stderr(`mcpgen: ${(e as Error).message}\n`))
      .finally(() => {
        running = false;
        arm();
        if (again || changedSince(before)) rerun();
        again = false;
      });
  };
  const rerun = () => {
    clearTimeout(timer);
    timer = setTimeout(start, WATCH_DEBOUNCE_MS);
  };
  const arm = () => {
    const next = new Set(inputs().map((f) => dirname(f)));
    watcher.unwatch([...dirs].filter((d) => !next.has(d)));
    watcher.add([...next].filter((d) => !dirs.has(d)));
    dirs = next;
  };
  // A new or removed subfolder (the output, a staging folder) is no input; a watched folder itself is.
  watcher.on('all', (event, path) => {
    if (event === 'addDir' || event === 'unlinkDir' ? dirs.has(path) : relevant(path)) rerun();
  });
  watcher.on('error', () => rerun());
  arm();
  await new Promise<void>((ready) => watcher.once('ready', () => ready()));
  io.stderr(`watching ${[...dirs].map((d) => displayPath(d, io.cwd) || '.').join(', ')} for spec changes (Ctrl-C to stop)\n`);
  return new Promise((resolve) => {
    process.once('SIGINT', () => {
      clearTimeout(timer);
      void watcher.close().then(() => resolve(0));
    });
  });
}

/** The bytes of each input as a run starts (null: missing), to tell afterwards whether it read the last text. */
function inputTexts(files: readonly string[]): Map<string, Buffer | null> {
  return new Map(files.map((f) => [f, readOrNull(f)]));
}

function changedSince(texts: ReadonlyMap<string, Buffer | null>): boolean {
  for (const [file, text] of texts) {
    const now = readOrNull(file);
    if (now === null || text === null ? now !== text : !now.equals(text)) return true;
  }
  return false;
}

function readOrNull(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}
