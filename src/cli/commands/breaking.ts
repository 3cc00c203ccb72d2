// `mcpgen breaking --base <git ref | file | folder> [spec ...]` and `mcpgen diff`: check both versions
// through the one pipeline (load → validate → model), then compare the models.
import { compareSides, knownRuleNames, type Category, type Side } from '../../compare/index.js';
import { hasErrors } from '../../diagnostics/diagnostic.js';
import { UsageError } from '../../errors.js';
import { relative } from 'node:path';
import { check, enableIncremental, resolveInputs, reuseForOldVersion, type CheckResult } from '../../pipeline.js';
import { stringFlag, type Parsed } from '../args.js';
import { loadBase } from '../breaking-base.js';
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
  // Both versions run through the pipeline; the old one reuses the new one's work for every unchanged tool
  // (issue 45 #9: `breaking` of a 1,000-tool spec with one change within 1.5× of `check`; bench/breaking.mjs).
  enableIncremental();
  const current = check(inputs.files, io.cwd, inputs.config?.dir);
  if (hasErrors(current.diagnostics)) return report(current, io);
  const old = loadBase(base, inputs.files, io.cwd, inputs.config?.dir, args.positional.length > 0);
  try {
    reuseForOldVersion(counterparts(old.files, old.configDir ?? old.cwd, inputs.files, inputs.config?.dir ?? io.cwd).map(([o, n]) => ({ old: o, new: n, oldCwd: old.cwd, newCwd: io.cwd })));
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

/** Each old spec file with the new one at the same place in its project, or the one file each side has (`--base FILE`). */
function counterparts(olds: readonly string[], oldProject: string, news: readonly string[], newProject: string): [string, string][] {
  if (olds.length === 1 && news.length === 1) return [[olds[0]!, news[0]!]];
  return olds.flatMap((o) => news.filter((n) => relative(newProject, n) === relative(oldProject, o)).map((n): [string, string] => [o, n]));
}
