// Compiles every generated package once per test run (strict, ESM) into .tmp/compiled/<name>/,
// so tests run the generated code itself. Diagnostics are recorded for compile.test.ts to assert on.
// The compile is skipped when .tmp/compiled/ holds one of the same inputs (generated/'s .ts files, the
// runtime packages' declarations, package-lock.json, the compiler options): README's test command runs
// `npm test`, then the interop suite, on the same generated/.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { STRICT_COMPILER_OPTIONS } from './strict-compiler.js';

const ROOT = resolve(import.meta.dirname, '../..');
export const COMPILED = join(ROOT, '.tmp/compiled');
export const COMPILE_RESULT = join(ROOT, '.tmp/compile-result.json');

export default function setup(): void {
  // scripts/test-interop.mjs runs several vitest processes; the others use the first one's compile.
  if (process.env.MCPGEN_COMPILED === COMPILE_RESULT && existsSync(COMPILE_RESULT)) return;
  const generated = join(ROOT, 'generated');
  const files = readdirSync(generated).flatMap((pkg) => {
    const dir = join(generated, pkg);
    try {
      return readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => join(dir, f));
    } catch {
      return [];
    }
  });
  const inputs = fingerprint(files);
  if (!upToDate(inputs)) compile(files, generated, inputs);
  // scripts/test-interop.mjs starts its other runs once this file exists.
  if (process.env.MCPGEN_COMPILE_READY !== undefined) writeFileSync(process.env.MCPGEN_COMPILE_READY, '');
}

function compile(files: readonly string[], generated: string, inputs: string): void {
  rmSync(COMPILE_RESULT, { force: true });
  rmSync(COMPILED, { recursive: true, force: true });
  mkdirSync(COMPILED, { recursive: true });
  const program = ts.createProgram(files, { ...STRICT_COMPILER_OPTIONS, rootDir: generated, outDir: COMPILED });
  const emitted = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((d) => ts.formatDiagnostic(d, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' }));
  writeFileSync(COMPILE_RESULT, JSON.stringify({ files: files.length, diagnostics, inputs }, null, 2));
}

/** A hash of everything the compile's output and diagnostics depend on. */
function fingerprint(files: readonly string[]): string {
  const hash = createHash('sha256').update(`${ts.version}\n${JSON.stringify(STRICT_COMPILER_OPTIONS)}\n`);
  const declarations = ['packages/runtime/dist', 'packages/runtime-client/dist'].flatMap((dir) =>
    existsSync(join(ROOT, dir)) ? readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.d.ts')).map((f) => join(ROOT, dir, f)) : []);
  for (const file of [...files, ...declarations, join(ROOT, 'package-lock.json')].sort()) hash.update(`${file}\n`).update(readFileSync(file));
  return hash.digest('hex');
}

function upToDate(inputs: string): boolean {
  try {
    const last = JSON.parse(readFileSync(COMPILE_RESULT, 'utf8')) as { files: number; inputs?: string };
    return last.inputs === inputs && existsSync(COMPILED);
  } catch {
    return false;
  }
}
