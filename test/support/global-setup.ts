// Compiles every generated package once per test run (strict, ESM) into .tmp/compiled/<name>/,
// so tests run the generated code itself. Diagnostics are recorded for compile.test.ts to assert on.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { STRICT_COMPILER_OPTIONS } from './strict-compiler.js';

const ROOT = resolve(import.meta.dirname, '../..');
export const COMPILED = join(ROOT, '.tmp/compiled');
export const COMPILE_RESULT = join(ROOT, '.tmp/compile-result.json');

export default function setup(): void {
  // scripts/test-interop.mjs runs two vitest processes; the second uses the first one's compile.
  if (process.env.MCPGEN_COMPILED === COMPILE_RESULT && existsSync(COMPILE_RESULT)) return;
  rmSync(COMPILED, { recursive: true, force: true });
  mkdirSync(COMPILED, { recursive: true });
  const generated = join(ROOT, 'generated');
  const files = readdirSync(generated).flatMap((pkg) => {
    const dir = join(generated, pkg);
    try {
      return readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => join(dir, f));
    } catch {
      return [];
    }
  });
  const program = ts.createProgram(files, { ...STRICT_COMPILER_OPTIONS, rootDir: generated, outDir: COMPILED });
  const emitted = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((d) => ts.formatDiagnostic(d, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' }));
  writeFileSync(COMPILE_RESULT, JSON.stringify({ files: files.length, diagnostics }, null, 2));
}
