import { watch } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { displayPath } from '../../load/spec-files.js';
import { hasErrors } from '../../diagnostics/diagnostic.js';
import { resolveInputs } from '../../inputs.js';
import { currentRun, saveRun, type RunKey } from '../../write/run-record.js';
import { stringFlag, type Parsed } from '../args.js';
import { printDiagnostics, type Io } from '../report.js';
import { runtimeDependencyWarning } from '../runtime-dependencies.js';

export async function runGenerate(args: Parsed, io: Io): Promise<number> {
  const once = () => generateOnce(args, io);
  const code = await once();
  if (!args.flags.has('watch')) return code;
  return watchSpecs(args, io, once);
}

async function generateOnce(args: Parsed, io: Io): Promise<number> {
  const inputs = resolveInputs(args.positional, io.cwd, stringFlag(args, 'config'));
  const format = (stringFlag(args, 'format') ?? inputs.config?.format ?? 'text') as 'text' | 'json';
  if (inputs.diagnostics.length > 0) {
    printDiagnostics({ diagnostics: inputs.diagnostics, files: [], sources: inputs.sources }, format, io);
    return 1;
  }
  const out = stringFlag(args, 'out') ?? (inputs.config ? `${inputs.config.dir}/${inputs.config.out}` : 'generated');
  const check = args.flags.has('check');
  const dirs = inputs.config ? { projectDir: inputs.config.dir, configDir: inputs.config.dir } : {};
  const warnMissing = () => {
    const missing = runtimeDependencyWarning(resolve(io.cwd, out), out);
    if (missing !== undefined) io.stderr(missing);
  };
  const key: RunKey = { cwd: resolve(io.cwd), out: resolve(io.cwd, out), projectDir: resolve(io.cwd, dirs.projectDir ?? '.'), configDir: dirs.configDir, specs: inputs.files };
  // Inputs and outputs as the last clean run left them: answer without loading the pipeline (or ts-morph).
  const current = currentRun(key);
  if (current !== undefined) {
    printDiagnostics({ diagnostics: current.record.diagnostics, files: current.record.files, sources: current.sources }, format, io);
    if (check) io.stderr(`generated output is current (${current.unchanged + current.kept} files)\n`);
    else io.stderr(`wrote 0 file(s), ${current.unchanged} unchanged, ${current.kept} scaffold file(s) kept, 0 removed\n`);
    warnMissing();
    return 0;
  }
  const { generate } = await import('../../pipeline.js');
  const result = await generate(inputs.files, io.cwd, { out, check, ...dirs });
  printDiagnostics(result, format, io);
  if (hasErrors(result.diagnostics) || result.plan === undefined) return 1;
  const clean = result.stale.length === 0 && result.plan.edited.length === 0;
  if (clean) {
    const sources = new Map([...inputs.sources, ...result.sources]);
    saveRun(key, { sources, globs: result.includeGlobs, outputs: result.outputs, files: result.files, diagnostics: result.diagnostics });
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
  io.stderr(`wrote ${result.plan.write.size} file(s), ${result.plan.unchanged.length} unchanged, ${result.plan.kept.length} scaffold file(s) kept, ${result.plan.remove.length} removed\n`);
  warnMissing();
  return 0;
}

/** Regenerate whenever a spec (or the config) changes; runs until interrupted. */
function watchSpecs(args: Parsed, io: Io, once: () => Promise<number>): Promise<number> {
  const inputs = resolveInputs(args.positional, io.cwd, stringFlag(args, 'config'));
  const dirs = new Set(inputs.files.map((f) => dirname(f)));
  let timer: NodeJS.Timeout | undefined;
  const rerun = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      once().catch((e: unknown) => io.stderr(`mcpgen: ${(e as Error).message}\n`));
    }, 100);
  };
  const watchers = [...dirs].map((d) => watch(d, { recursive: true }, (_event, name) => {
    if (name !== null && /\.ya?ml$/i.test(String(name))) rerun();
  }));
  io.stderr(`watching ${[...dirs].join(', ')} for spec changes (Ctrl-C to stop)\n`);
  return new Promise((resolve) => {
    process.once('SIGINT', () => {
      for (const w of watchers) w.close();
      resolve(0);
    });
  });
}
