// The one place that runs every stage: load → validate → model (→ emit → write for `generate`).
import { dirname, join, resolve } from 'node:path';
import { hasErrors, sortDiagnostics, type Diagnostic } from './diagnostics/diagnostic.js';
import { UsageError } from './errors.js';
import { findConfig, readConfigFile, toConfig, type Config } from './load/config.js';
import { expandGlob, isGlob } from './load/glob.js';
import { displayPath, loadSpec } from './load/spec-files.js';
import { buildModel } from './model/build.js';
import type { ServerModel } from './model/ir.js';
import { validateAgainstPackagedSchema } from './validate/spec-format.js';
import { validateSpec } from './validate/index.js';
import { checkSkills } from './validate/skills.js';
import { collisions, type NamedSpec } from './validate/collisions.js';
import { portablePath } from './common/portable-path.js';
import { beginWriteStage } from './write/fs-ops.js';
import { applyPlan, planOutput, recoverOutput, staleList, type OutputPlan } from './write/output.js';

export interface CheckResult {
  readonly files: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
  /** One per spec that has no errors. */
  readonly models: readonly ServerModel[];
  /** Text of every file read, by display name, for code frames. */
  readonly sources: ReadonlyMap<string, string>;
}

export interface Inputs {
  readonly files: readonly string[];
  readonly config: Config | undefined;
  readonly diagnostics: readonly Diagnostic[];
  readonly sources: ReadonlyMap<string, string>;
}

/** Spec files from the command line, or else from mcpgen.config.yaml. */
export function resolveInputs(args: readonly string[], cwd: string, configPath?: string): Inputs {
  const sources = new Map<string, string>();
  const path = findConfig(cwd, configPath);
  let config: Config | undefined;
  if (path !== undefined) {
    const file = readConfigFile(path, cwd);
    if (file.source !== undefined) sources.set(file.source.file, file.source.text);
    const diagnostics = [...file.diagnostics];
    if (file.source !== undefined && diagnostics.length === 0) diagnostics.push(...validateAgainstPackagedSchema(file.source, 'schema/mcpgen.config.schema.json'));
    if (diagnostics.length > 0) return { files: [], config: undefined, diagnostics, sources };
    config = toConfig(file);
  }
  const patterns = args.length > 0 ? args.map((a) => ({ pattern: a, base: cwd })) : (config?.specs ?? []).map((p) => ({ pattern: p, base: config!.dir }));
  if (patterns.length === 0) {
    throw new UsageError('no spec files given and no mcpgen.config.yaml here; run `mcpgen init` or pass spec files');
  }
  const files: string[] = [];
  for (const { pattern, base } of patterns) {
    const matches = isGlob(pattern) ? expandGlob(pattern, base).map((m) => resolve(base, m)) : [resolve(base, pattern)];
    if (matches.length === 0) throw new UsageError(`no spec file matches ${JSON.stringify(pattern)}`);
    for (const m of matches) if (!files.includes(m)) files.push(m);
  }
  return { files, config, diagnostics: [], sources };
}

/**
 * `configDir`: the directory of mcpgen.config.yaml, if any (includes stay inside it; see projectOf).
 * `handlersFile`: where each server's handlers file goes (config `handlers`), to refuse two servers sharing one.
 */
export function check(files: readonly string[], cwd: string, configDir?: string, handlersFile?: (server: string) => string): CheckResult {
  const diagnostics: Diagnostic[] = [];
  const models: ServerModel[] = [];
  const sources = new Map<string, string>();
  const named: NamedSpec[] = [];
  const handlers: NamedSpec[] = [];
  for (const abs of files) {
    const loaded = loadSpec(abs, cwd, configDir);
    diagnostics.push(...loaded.diagnostics);
    if (loaded.spec === undefined) continue;
    for (const s of [loaded.spec.root, ...loaded.spec.includes]) sources.set(s.file, s.text);
    if (loaded.spec.root.value === undefined) continue; // YAML errors already reported
    const validation = validateSpec(loaded.spec);
    diagnostics.push(...validation.diagnostics);
    const skills = checkSkills(loaded.spec, abs, cwd, configDir);
    diagnostics.push(...skills.diagnostics);
    for (const [file, text] of skills.sources) sources.set(file, text);
    if (validation.view !== undefined && !hasErrors(loaded.diagnostics) && !hasErrors(skills.diagnostics)) {
      const model = buildModel(validation.view, skills.files);
      models.push(model);
      named.push({ source: loaded.spec.root, target: model.name });
      if (handlersFile !== undefined) handlers.push({ source: loaded.spec.root, target: handlersFile(model.name) });
    }
  }
  diagnostics.push(...collisions(named, 'MCPG100', (name, others) => `server name ${JSON.stringify(name)} is also the server name in ${others}: both would generate the same output folder ${name}/; rename one`));
  diagnostics.push(...collisions(handlers, 'MCPG101', (file, others) => `${others} and this spec would share the handlers file ${displayPath(file, cwd)}; put {server} in the config's \`handlers\` path`));
  return { files: files.map((f) => displayPath(f, cwd)), diagnostics: sortDiagnostics(diagnostics), models, sources };
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
}

/** check → emit → plan → write (or compare). Nothing is written unless every spec is free of errors. */
export async function generate(files: readonly string[], cwd: string, options: GenerateOptions): Promise<GenerateResult> {
  // Loaded only here, so `check` never pays for ts-morph and TypeScript; started first so its file
  // reads overlap with the checks.
  const emitter = import('./emit/index.js');
  const outDir = resolve(cwd, options.out);
  const handlersFile = (server: string) => (options.handlers === undefined ? join(outDir, server, 'handlers.ts') : resolve(cwd, options.handlers.replaceAll('{server}', server)));
  const checked = check(files, cwd, options.configDir, options.handlers === undefined ? undefined : handlersFile);
  if (hasErrors(checked.diagnostics)) return { ...checked, plan: undefined, stale: [], recovered: [] };
  const { emitServerPackage, handlerStubs } = await emitter;
  const projectDir = resolve(cwd, options.projectDir ?? '.');
  const packages = checked.models.map((model) => {
    const spec = portablePath(projectDir, resolve(cwd, model.specFile));
    const dir = resolve(outDir, model.name);
    const handlers = handlersFile(model.name);
    const inside = handlers === join(dir, 'handlers.ts');
    const files = emitServerPackage({ ...model, specFile: spec }, {
      packageFiles: options.packageFiles ?? true,
      handlersModule: moduleSpecifier(dir, handlers),
      serverModule: moduleSpecifier(dirname(handlers), join(dir, 'server.ts')),
    });
    const scaffold = files.find((f) => f.kind === 'scaffold')!;
    return {
      dir,
      server: model.name,
      spec,
      files: inside ? files : files.filter((f) => f !== scaffold),
      handlers: { path: handlers, content: scaffold.content },
      methods: handlerStubs(model),
    };
  });
  beginWriteStage(cwd);
  if (options.check) {
    const plan = planOutput(outDir, packages, projectDir);
    return { ...checked, plan, stale: staleList(plan, cwd), recovered: [] };
  }
  const recovered = recoverOutput(outDir, packages.map((p) => p.dir));
  const plan = planOutput(outDir, packages, projectDir);
  applyPlan(plan);
  return { ...checked, plan, stale: [], recovered: recovered.map((d) => displayPath(d, cwd)) };
}
