// The one place that runs every stage: load → validate → model (→ emit → write for `generate`).
import { dirname, join, resolve } from 'node:path';
import { enableEntryCache, readAsVersionOf, sweepEntryCache } from './parse/entry-cache.js';
import { enableObjectCaches } from './common/context-stores.js';
import { hasErrors, sortDiagnostics, type Diagnostic } from './diagnostics/diagnostic.js';
import { isGlob } from './load/glob.js';
import { displayPath, loadSpec } from './load/spec-files.js';
import { buildModel } from './model/build.js';
import { serverFolder } from './common/names.js';
import type { ServerModel } from './model/ir.js';
import { validateSpec } from './validate/index.js';
import type { ProviderTarget } from '@mcpgen/runtime/shared/provider-rules';
import { viewLocator } from './validate/locator.js';
import type { Locator } from './compare/types.js';
import { checkSkills } from './validate/skills.js';
import { collisions, type NamedSpec } from './validate/collisions.js';
import { portablePath } from './common/portable-path.js';
import { beginWriteStage } from './write/fs-ops.js';
import { MANIFEST_FILE } from './write/manifest.js';
import { applyPlan, planOutput, recoverOutput, staleList, type OutputPlan } from './write/output.js';
import { speedOff } from './common/speed-off.js';

export { resolveInputs, type Inputs } from './inputs.js';

/**
 * `generate --watch`: from now on each stage keeps what it made per tool, resource and prompt and reuses
 * it while that entry's text is unchanged (parse by text, the later stages by the parsed object). Each
 * cache lives next to the stage that owns it; a run's output is the same as without them.
 */
export function enableIncremental(): void {
  if (speedOff('watch-caches')) return;
  enableEntryCache();
  // validate's clean sets, model's tool IRs and emit's member texts: one switch.
  enableObjectCaches();
}

/**
 * `mcpgen breaking`, after checking the new version with enableIncremental on: the old version's check
 * reuses, per tool, what the new one made wherever the text is the same (each old spec file paired with its
 * new counterpart), so only what changed is read, validated and modelled twice.
 */
export function reuseForOldVersion(pairs: readonly { readonly old: string; readonly new: string; readonly oldCwd: string; readonly newCwd: string }[]): void {
  if (speedOff('watch-caches') || speedOff('breaking-reuse')) return;
  for (const p of pairs) readAsVersionOf(displayPath(p.old, p.oldCwd), displayPath(p.new, p.newCwd));
}

/** After a run: each cache drops what the run did not use. */
function sweepIncremental(): void {
  sweepEntryCache();
}

export interface CheckResult {
  readonly files: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
  /** One per spec that has no errors. */
  readonly models: readonly ServerModel[];
  /** Text of every file read, by display name, for code frames. */
  readonly sources: ReadonlyMap<string, string>;
  /** `include:` globs of the root specs (a new file matching one changes the inputs). */
  readonly includeGlobs: readonly { readonly pattern: string; readonly dir: string }[];
  /** Absolute paths of the other files and folders whose contents are embedded: `apps[].html`, `skills:`. */
  readonly inputPaths: readonly string[];
  /** Where each model's parts stand in its spec files (for `breaking`, which compares models only). */
  readonly locators: ReadonlyMap<ServerModel, Locator>;
}

/** The MCP Apps views and the skills folder a root spec names (relative to it), read or not. */
function embeddedPaths(root: unknown, specPath: string): string[] {
  const value = (root ?? {}) as { apps?: unknown; skills?: unknown };
  const paths = Array.isArray(value.apps) ? value.apps.map((a: unknown) => (a as { html?: unknown } | null)?.html) : [];
  return [...paths, value.skills].filter((p): p is string => typeof p === 'string' && p !== '').map((p) => resolve(dirname(specPath), p));
}

/**
 * `configDir`: the directory of mcpgen.config.yaml, if any (includes stay inside it; see projectOf).
 * `handlersFile`: where each server's handlers file goes (config `handlers`), to refuse two servers sharing one.
 * `targets`: model providers to check every tool against (`check --target`, config `targets`).
 * `models: false`: a caller that only reports (`mcpgen check`, the import's check) gets no models: building
 * one finds nothing the validation did not (GitHub's description: ~80 ms), and the output folders the
 * collision checks compare come from the server names alone.
 */
export function check(files: readonly string[], cwd: string, configDir?: string, handlersFile?: (server: string) => string, targets: readonly ProviderTarget[] = [], options: { readonly models?: boolean } = {}): CheckResult {
  const diagnostics: Diagnostic[] = [];
  const models: ServerModel[] = [];
  const locators = new Map<ServerModel, Locator>();
  const sources = new Map<string, string>();
  const named: NamedSpec[] = [];
  const handlers: NamedSpec[] = [];
  const includeGlobs: { pattern: string; dir: string }[] = [];
  // Other files the output is made of (MCP Apps views, skills folders): the run record hashes them too.
  const inputPaths: string[] = [];
  for (const abs of files) {
    const loaded = loadSpec(abs, cwd, configDir);
    diagnostics.push(...loaded.diagnostics);
    if (loaded.spec === undefined) continue;
    const include = (loaded.spec.root.value as { include?: unknown } | null | undefined)?.include;
    if (Array.isArray(include)) for (const p of include) if (typeof p === 'string' && isGlob(p)) includeGlobs.push({ pattern: p, dir: dirname(abs) });
    inputPaths.push(...embeddedPaths(loaded.spec.root.value, abs));
    for (const s of [loaded.spec.root, ...loaded.spec.includes]) sources.set(s.file, s.text);
    if (loaded.spec.root.value === undefined) continue; // YAML errors already reported
    const validation = validateSpec(loaded.spec, targets);
    diagnostics.push(...validation.diagnostics);
    const skills = checkSkills(loaded.spec, abs, cwd, configDir);
    diagnostics.push(...skills.diagnostics);
    for (const [file, text] of skills.sources) sources.set(file, text);
    if (validation.view !== undefined && !hasErrors(loaded.diagnostics) && !hasErrors(skills.diagnostics)) {
      // What buildModel names model.folder.
      const folder = serverFolder(validation.view.spec.server!.name);
      if (options.models !== false) {
        const model = buildModel(validation.view, skills.files);
        models.push(model);
        locators.set(model, viewLocator(validation.view));
      }
      named.push({ source: loaded.spec.root, target: folder });
      if (handlersFile !== undefined) handlers.push({ source: loaded.spec.root, target: handlersFile(folder) });
    }
  }
  sweepIncremental();
  diagnostics.push(...collisions(named, 'MCPG100', (name, others) => `server name ${JSON.stringify(name)} is also the server name in ${others}: both would generate the same output folder ${name}/; rename one`));
  diagnostics.push(...collisions(handlers, 'MCPG101', (file, others) => `${others} and this spec would share the handlers file ${displayPath(file, cwd)}; put {server} in the config's \`handlers\` path`));
  return { files: files.map((f) => displayPath(f, cwd)), diagnostics: sortDiagnostics(diagnostics), models, sources, includeGlobs, inputPaths, locators };
}

/** How `from`/x.ts imports `file` (a .ts path): relative, forward slashes, `.js` as Node ESM resolves it. */
function moduleSpecifier(from: string, file: string): string {
  const rel = portablePath(from, file).replace(/\.ts$/, '.js');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

export interface GenerateOptions {
  /** Output directory; one folder per server inside it. */
  readonly out: string;
  /** Compare only: write nothing. */
  readonly check?: boolean;
  /**
   * The folder spec paths in generated output are relative to (the config file's folder; default cwd), so
   * output never depends on where the repository is checked out or which folder `generate` ran from.
   */
  readonly projectDir?: string;
  /** The directory of mcpgen.config.yaml, if any: includes stay inside it. */
  readonly configDir?: string;
  /** Write package.json and tsconfig.json into each server folder (config `packageFiles`; default true). */
  readonly packageFiles?: boolean;
  /** Each server's handlers file (config `handlers`, relative to cwd, `{server}` for the name); default `<out>/<server>/handlers.ts`. */
  readonly handlers?: string;
}

export interface GenerateResult extends CheckResult {
  readonly plan: OutputPlan | undefined;
  /** With `check`: what is stale (empty when the output is current). */
  readonly stale: readonly string[];
  /** Package folders where this run finished or undid what a crashed run left. */
  readonly recovered: readonly string[];
  /** Every file this run produces (absolute), manifests included; generated ones with their sha256. */
  readonly outputs: readonly { readonly path: string; readonly kind: 'generated' | 'scaffold'; readonly sha256?: string }[];
}

function withHash(plan: OutputPlan, path: string, kind: 'generated' | 'scaffold') {
  const sha256 = kind === 'generated' ? plan.hashes.get(path) : undefined;
  return { path, kind, ...(sha256 !== undefined ? { sha256 } : {}) };
}

/** check → emit → plan → write (or compare). Nothing is written unless every spec is free of errors. */
export async function generate(files: readonly string[], cwd: string, options: GenerateOptions): Promise<GenerateResult> {
  const outDir = resolve(cwd, options.out);
  const handlersFile = (server: string) => (options.handlers === undefined ? join(outDir, server, 'handlers.ts') : resolve(cwd, options.handlers.replaceAll('{server}', server)));
  const checked = check(files, cwd, options.configDir, options.handlers === undefined ? undefined : handlersFile);
  if (hasErrors(checked.diagnostics)) return { ...checked, plan: undefined, stale: [], recovered: [], outputs: [] };
  const projectDir = resolve(cwd, options.projectDir ?? '.');
  const targets = checked.models.map((model) => {
    const dir = resolve(outDir, model.folder);
    const handlers = handlersFile(model.folder);
    return { model, dir, handlers, spec: portablePath(projectDir, resolve(cwd, model.specFile)) };
  });
  // ts-morph loads only now: `check`, and a run with errors, never load it.
  const { emitPackages } = await import('./emit/index.js');
  const emitted = emitPackages(
    targets.map(({ model, dir, handlers, spec }) => ({
      model: { ...model, specFile: spec },
      options: {
        packageFiles: options.packageFiles ?? true,
        handlersModule: moduleSpecifier(dir, handlers),
        serverModule: moduleSpecifier(dirname(handlers), join(dir, 'server.ts')),
      },
    })),
  );
  const packages = targets.map(({ model, dir, handlers, spec }, i) => {
    const { files, methods } = emitted[i]!;
    const inside = handlers === join(dir, 'handlers.ts');
    const scaffold = files.find((f) => f.kind === 'scaffold')!;
    return {
      dir,
      server: model.folder,
      spec,
      files: inside ? files : files.filter((f) => f !== scaffold),
      handlers: { path: handlers, content: scaffold.content },
      methods,
    };
  });
  // With the hash each generated file and manifest has once the plan is applied: the run record's.
  const outputsOf = (plan: OutputPlan): GenerateResult['outputs'] =>
    packages.flatMap((p) => [
      ...p.files.map((f) => withHash(plan, join(p.dir, f.path), f.kind)),
      withHash(plan, join(p.dir, MANIFEST_FILE), 'generated'),
      // A handlers file outside the output folder (config `handlers`) must still exist for a run to be current.
      ...(p.files.some((f) => join(p.dir, f.path) === p.handlers.path) ? [] : [{ path: p.handlers.path, kind: 'scaffold' as const }]),
    ]);
  beginWriteStage(cwd);
  if (options.check) {
    const plan = planOutput(outDir, packages, projectDir);
    return { ...checked, plan, stale: staleList(plan, cwd), recovered: [], outputs: outputsOf(plan) };
  }
  const recovered = recoverOutput(outDir, packages.map((p) => p.dir));
  const plan = planOutput(outDir, packages, projectDir);
  applyPlan(plan);
  return { ...checked, plan, stale: [], recovered: recovered.map((d) => displayPath(d, cwd)), outputs: outputsOf(plan) };
}
