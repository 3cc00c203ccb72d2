import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { writeFilesAtomically } from './atomic.js';

export interface OutputFile {
  readonly path: string;
  readonly content: string;
  readonly kind: 'generated' | 'scaffold';
}

export interface OutputPackage {
  /** Absolute directory of one server's output. */
  readonly dir: string;
  readonly files: readonly OutputFile[];
}

export interface OutputPlan {
  readonly write: ReadonlyMap<string, string>;
  /** Files mcpgen wrote earlier that no current spec produces. */
  readonly remove: readonly string[];
  readonly unchanged: readonly string[];
  /** Scaffold files that already exist: the user's, left alone. */
  readonly kept: readonly string[];
}

/**
 * What `generate` would do: write changed and missing files, keep unchanged ones, remove stale files
 * that carry mcpgen's mark (`isOurs`) in the package folders and in sibling folders under `outDir`.
 */
export function planOutput(outDir: string, packages: readonly OutputPackage[], isOurs: (path: string, text: string) => boolean): OutputPlan {
  const write = new Map<string, string>();
  const unchanged: string[] = [];
  const kept: string[] = [];
  const expected = new Set<string>();
  for (const pkg of packages) {
    for (const f of pkg.files) {
      const abs = join(pkg.dir, f.path);
      expected.add(abs);
      const current = existsSync(abs) ? readFileSync(abs, 'utf8') : undefined;
      if (f.kind === 'scaffold' && current !== undefined) kept.push(abs);
      else if (current === f.content) unchanged.push(abs);
      else write.set(abs, f.content);
    }
  }
  const remove: string[] = [];
  const dirs = new Set(packages.map((p) => resolve(p.dir)));
  if (existsSync(outDir) && statSync(outDir).isDirectory()) {
    for (const name of readdirSync(outDir)) {
      const dir = join(outDir, name);
      if (statSync(dir).isDirectory()) dirs.add(resolve(dir));
    }
  }
  for (const dir of [...dirs].sort()) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      if (expected.has(abs) || !statSync(abs).isFile()) continue;
      if (isOurs(abs, readFileSync(abs, 'utf8'))) remove.push(abs);
    }
  }
  return { write, remove, unchanged, kept };
}

export function applyPlan(plan: OutputPlan): void {
  writeFilesAtomically(plan.write);
  for (const f of plan.remove) rmSync(f, { force: true });
}

/** Paths (relative to cwd) that make the checked-in output stale. */
export function staleFiles(plan: OutputPlan, cwd: string): string[] {
  return [...[...plan.write.keys()].map((f) => `${relative(cwd, f)} (${existsSync(f) ? 'changed' : 'missing'})`), ...plan.remove.map((f) => `${relative(cwd, f)} (no longer generated)`)].sort();
}
