// What a command works on: the spec files named on the command line or by mcpgen.config.yaml. Apart from
// pipeline.ts so that a `generate` whose outputs are current can find its inputs without loading the
// validators, the model or the emitters.
import { resolve } from 'node:path';
import type { Diagnostic } from './diagnostics/diagnostic.js';
import { UsageError } from './errors.js';
import { findConfig, readConfigFile, toConfig, type Config } from './load/config.js';
import { expandGlob, isGlob } from './load/glob.js';
import { validateAgainstPackagedSchema } from './validate/spec-format.js';

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
