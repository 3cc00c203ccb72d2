// The one place that runs every stage: load → validate → model (→ emit → write for `generate`).
import { dirname, join, resolve } from 'node:path';
import { hasErrors, sortDiagnostics, type Diagnostic } from './diagnostics/diagnostic.js';
import { isGlob } from './load/glob.js';
import { displayPath, loadSpec } from './load/spec-files.js';
import { buildModel } from './model/build.js';
import type { ServerModel } from './model/ir.js';
import { validateSpec } from './validate/index.js';
import { portablePath } from './common/portable-path.js';
import { beginWriteStage } from './write/fs-ops.js';
import { MANIFEST_FILE } from './write/manifest.js';
import { applyPlan, planOutput, recoverOutput, staleList, type OutputPlan } from './write/output.js';

export { resolveInputs, type Inputs } from './inputs.js';

export interface CheckResult {
  readonly files: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
  /** One per spec that has no errors. */
  readonly models: readonly ServerModel[];
  /** Text of every file read, by display name, for code frames. */
  readonly sources: ReadonlyMap<string, string>;
  /** `include:` globs of the root specs (a new file matching one changes the inputs). */
  readonly includeGlobs: readonly { readonly pattern: string; readonly dir: string }[];
}

/** `configDir`: the directory of mcpgen.config.yaml, if any (includes stay inside it; see projectOf). */
export function check(files: readonly string[], cwd: string, configDir?: string): CheckResult {
  const diagnostics: Diagnostic[] = [];
  const models: ServerModel[] = [];
  const sources = new Map<string, string>();
  const includeGlobs: { pattern: string; dir: string }[] = [];
  for (const abs of files) {
    const loaded = loadSpec(abs, cwd, configDir);
    diagnostics.push(...loaded.diagnostics);
    if (loaded.spec === undefined) continue;
    const include = (loaded.spec.root.value as { include?: unknown } | null | undefined)?.include;
    if (Array.isArray(include)) for (const p of include) if (typeof p === 'string' && isGlob(p)) includeGlobs.push({ pattern: p, dir: dirname(abs) });
    for (const s of [loaded.spec.root, ...loaded.spec.includes]) sources.set(s.file, s.text);
    if (loaded.spec.root.value === undefined) continue; // YAML errors already reported
    const validation = validateSpec(loaded.spec);
    diagnostics.push(...validation.diagnostics);
    if (validation.view !== undefined && !hasErrors(loaded.diagnostics)) models.push(buildModel(validation.view));
  }
  return { files: files.map((f) => displayPath(f, cwd)), diagnostics: sortDiagnostics(diagnostics), models, sources, includeGlobs };
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
}

export interface GenerateResult extends CheckResult {
  readonly plan: OutputPlan | undefined;
  /** With `check`: what is stale (empty when the output is current). */
  readonly stale: readonly string[];
  /** Package folders where this run finished or undid what a crashed run left. */
  readonly recovered: readonly string[];
  /** Every file this run produces (absolute), manifests included. */
  readonly outputs: readonly { readonly path: string; readonly kind: 'generated' | 'scaffold' }[];
}

/** check → emit → plan → write (or compare). Nothing is written unless every spec is free of errors. */
export async function generate(files: readonly string[], cwd: string, options: GenerateOptions): Promise<GenerateResult> {
  // Loaded only here, so `check` never pays for ts-morph and TypeScript; started first so its file
  // reads overlap with the checks.
  const emitter = import('./emit/index.js');
  const checked = check(files, cwd, options.configDir);
  if (hasErrors(checked.diagnostics)) return { ...checked, plan: undefined, stale: [], recovered: [], outputs: [] };
  const { emitServerPackage } = await emitter;
  const outDir = resolve(cwd, options.out);
  const projectDir = resolve(cwd, options.projectDir ?? '.');
  const packages = checked.models.map((model) => {
    const spec = portablePath(projectDir, resolve(cwd, model.specFile));
    return { dir: resolve(outDir, model.name), server: model.name, spec, files: emitServerPackage({ ...model, specFile: spec }) };
  });
  const outputs = packages.flatMap((p) => [...p.files.map((f) => ({ path: join(p.dir, f.path), kind: f.kind })), { path: join(p.dir, MANIFEST_FILE), kind: 'generated' as const }]);
  beginWriteStage(cwd);
  if (options.check) {
    const plan = planOutput(outDir, packages);
    return { ...checked, plan, stale: staleList(plan, cwd), recovered: [], outputs };
  }
  const recovered = recoverOutput(outDir, packages.map((p) => p.dir));
  const plan = planOutput(outDir, packages);
  applyPlan(plan);
  return { ...checked, plan, stale: [], recovered: recovered.map((d) => displayPath(d, cwd)), outputs };
}
