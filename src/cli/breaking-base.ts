// The old version `mcpgen breaking --base` compares against: a spec file, a folder, or a git revision read
// with git (never checked out here). Its specs are the new version's paths found there plus, without spec
// arguments, those its own mcpgen.config.yaml lists: a spec deleted or renamed since is still compared.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { EnvironmentError, UsageError } from '../errors.js';
import { resolveInputs } from '../inputs.js';
import { CONFIG_FILE } from '../load/config.js';

export interface Base {
  readonly files: string[];
  readonly cwd: string;
  readonly configDir: string | undefined;
  readonly display: (file: string) => string;
  readonly cleanup: () => void;
}

/** `explicit`: specs were named on the command line (then the base's config does not add its own). */
export function loadBase(base: string, files: readonly string[], cwd: string, configDir: string | undefined, explicit: boolean): Base {
  const path = resolve(cwd, base);
  const none = () => {};
  if (existsSync(path) && statSync(path).isFile()) return { files: [path], cwd, configDir: undefined, display: (f) => f, cleanup: none };
  const project = configDir ?? cwd;
  const rels = files.map((f) => relative(project, f));
  if (existsSync(path) && statSync(path).isDirectory()) {
    const byName = files.map((f) => join(path, basename(f)));
    const found = specsIn(path, [...rels.map((r) => join(path, r)), ...byName], explicit);
    // A folder is named on purpose: one holding none of the specs is a mistyped path, not an empty old version.
    if (found.length === 0) throw new UsageError(`--base ${JSON.stringify(base)}: the folder holds none of the specs (looked for ${rels.join(', ')}${explicit ? '' : ` and its own ${CONFIG_FILE}`}); name the folder that holds the old version`);
    return { files: found, cwd: path, configDir: path, display: (f) => relative(cwd, resolve(path, f)) || f, cleanup: none };
  }
  return fromGit(base, rels, project, cwd, explicit);
}

/** The candidate paths that exist, then the specs the old version's own config lists. */
function specsIn(oldProject: string, candidates: readonly string[], explicit: boolean): string[] {
  const found: string[] = [];
  for (const f of candidates) if (existsSync(f) && statSync(f).isFile() && !found.includes(f)) found.push(f);
  if (explicit || !existsSync(join(oldProject, CONFIG_FILE))) return found;
  try {
    const own = resolveInputs([], oldProject);
    if (own.diagnostics.length === 0) for (const f of own.files) if (existsSync(f) && !found.includes(f)) found.push(f);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e; // an old config whose globs match nothing: its paths found above stand
  }
  return found;
}

function git(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): { ok: boolean; out: string; err: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  if (r.error) throw new EnvironmentError(`cannot run git: ${r.error.message}`);
  return { ok: r.status === 0, out: r.stdout.trim(), err: r.stderr.trim().split('\n')[0] ?? '' };
}

function gitOrFail(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const r = git(args, cwd, env);
  if (!r.ok) throw new EnvironmentError(`git ${args[0]} failed: ${r.err}`);
  return r.out;
}

/** Why `ref` names no commit here; a shallow clone (CI's default checkout) says how to fetch the history. */
function unknownRevision(ref: string, project: string): UsageError {
  if (git(['rev-parse', '--is-shallow-repository'], project).out === 'true') {
    return new UsageError(`--base ${JSON.stringify(ref)}: this clone is shallow, so the revision is not in its history; fetch it first (\`git fetch --deepen=1\` for HEAD~1, \`git fetch origin <branch>\` for a branch, \`git fetch --unshallow\` for all; with actions/checkout, \`fetch-depth: 0\`)`);
  }
  const why = git(['rev-parse', '--verify', ref], project).err;
  return new UsageError(`--base ${JSON.stringify(ref)}: not a file, folder or git revision here${why ? ` (${why})` : ''}`);
}

/** Write the commit's tree into a temporary folder through a private index: the repository's own index and work tree stay untouched. */
function fromGit(ref: string, rels: readonly string[], project: string, cwd: string, explicit: boolean): Base {
  const commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], project);
  if (!commit.ok) throw unknownRevision(ref, project);
  const top = gitOrFail(['rev-parse', '--show-toplevel'], project);
  const dir = mkdtempSync(join(tmpdir(), 'mcpgen-base-'));
  const env = { GIT_INDEX_FILE: join(dir, '.index') };
  try {
    gitOrFail(['read-tree', commit.out], top, env);
    gitOrFail(['checkout-index', '--all', `--prefix=${join(dir, 'tree')}/`], top, env);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const oldProject = join(dir, 'tree', relative(top, project));
  return {
    files: specsIn(oldProject, rels.map((r) => join(oldProject, r)), explicit),
    cwd: oldProject,
    configDir: oldProject,
    display: (f) => `${ref}:${relative(cwd, resolve(project, f)).replaceAll('\\', '/')}`,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
