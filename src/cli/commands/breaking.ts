// `mcpgen breaking --base <git ref | file | folder> [spec ...]` and `mcpgen diff`: check both versions
// through the one pipeline (load → validate → model), then compare the models.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { compareSides, knownRuleNames, type Category, type Side } from '../../compare/index.js';
import { hasErrors } from '../../diagnostics/diagnostic.js';
import { EnvironmentError, UsageError } from '../../errors.js';
import { check, resolveInputs, type CheckResult } from '../../pipeline.js';
import { stringFlag, type Parsed } from '../args.js';
import { formatComparison, type BreakingFormat } from '../breaking-format.js';
import { printDiagnostics, type Io } from '../report.js';

export function runBreaking(args: Parsed, io: Io, mode: 'breaking' | 'diff'): number {
  const base = stringFlag(args, 'base') ?? stringFlag(args, 'against');
  if (base === undefined) throw new UsageError(`${mode} needs --base <git ref | file | folder>`);
  const format = (stringFlag(args, 'format') ?? 'text') as BreakingFormat;
  const inputs = resolveInputs(args.positional, io.cwd, stringFlag(args, 'config'));
  if (inputs.diagnostics.length > 0) return report({ diagnostics: inputs.diagnostics, files: [], sources: inputs.sources }, io);
  const settings = inputs.config?.breaking;
  const known = knownRuleNames();
  for (const i of settings?.ignore ?? []) if (!known.has(i.rule)) throw new UsageError(`config breaking.ignore: unknown rule or category ${JSON.stringify(i.rule)} (see docs/breaking-changes.md)`);
  const current = check(inputs.files, io.cwd, inputs.config?.dir);
  if (hasErrors(current.diagnostics)) return report(current, io);
  const old = loadBase(base, inputs.files, io.cwd, inputs.config?.dir);
  try {
    const before = check(old.files, old.cwd, old.configDir);
    if (hasErrors(before.diagnostics)) {
      io.stderr(`mcpgen: the base version (${base}) does not validate:\n`);
      return report(before, io);
    }
    const comparison = compareSides(sides(before, old.display), sides(current, (f) => f), {
      ...(settings?.failOn ? { failOn: settings.failOn as Category[] } : {}),
      ...(settings?.ignore ? { ignore: settings.ignore } : {}),
    });
    const text = formatComparison(comparison, format);
    if (format === 'text') io.stderr(text);
    else io.stdout(text);
    return mode === 'breaking' && comparison.failing.length > 0 ? 1 : 0;
  } finally {
    old.cleanup();
  }
}

function report(result: Pick<CheckResult, 'diagnostics' | 'files' | 'sources'>, io: Io): number {
  printDiagnostics(result, 'text', io);
  return 1;
}

function sides(result: CheckResult, display: (file: string) => string): Side[] {
  return result.models.map((model) => {
    const locate = result.locators.get(model)!;
    return { model, locate: (item, sub) => { const p = locate(item, sub); return p && { ...p, file: display(p.file) }; } };
  });
}

interface Base {
  readonly files: string[];
  readonly cwd: string;
  readonly configDir: string | undefined;
  readonly display: (file: string) => string;
  readonly cleanup: () => void;
}

/** The old version: a file, the same specs under a folder, or the same specs in a git commit (read with git, never checked out here). */
function loadBase(base: string, files: readonly string[], cwd: string, configDir: string | undefined): Base {
  const path = resolve(cwd, base);
  const none = () => {};
  if (existsSync(path) && statSync(path).isFile()) return { files: [path], cwd, configDir: undefined, display: (f) => f, cleanup: none };
  const project = configDir ?? cwd;
  const rels = files.map((f) => relative(project, f));
  if (existsSync(path) && statSync(path).isDirectory()) {
    const found = rels.map((r, i) => (existsSync(join(path, r)) ? join(path, r) : join(path, basename(files[i]!)))).filter((f) => existsSync(f));
    return { files: found, cwd: path, configDir: path, display: (f) => relative(cwd, resolve(path, f)) || f, cleanup: none };
  }
  return fromGit(base, rels, project, cwd);
}

function git(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  if (r.error) throw new EnvironmentError(`cannot run git: ${r.error.message}`);
  if (r.status !== 0) throw new UsageError(`--base ${JSON.stringify(args.at(-1))}: not a file, folder or git revision here (${r.stderr.trim().split('\n')[0]})`);
  return r.stdout.trim();
}

/** Write the commit's tree into a temporary folder through a private index: the repository's own index and work tree stay untouched. */
function fromGit(ref: string, rels: readonly string[], project: string, cwd: string): Base {
  const commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], project);
  const top = git(['rev-parse', '--show-toplevel'], project);
  const dir = mkdtempSync(join(tmpdir(), 'mcpgen-base-'));
  const env = { GIT_INDEX_FILE: join(dir, '.index') };
  git(['read-tree', commit], top, env);
  git(['checkout-index', '--all', `--prefix=${join(dir, 'tree')}/`], top, env);
  const oldProject = join(dir, 'tree', relative(top, project));
  const found = rels.map((r) => join(oldProject, r)).filter((f) => existsSync(f));
  return {
    files: found,
    cwd: oldProject,
    configDir: oldProject,
    display: (f) => `${ref}:${relative(cwd, resolve(project, f)).replaceAll('\\', '/')}`,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
