// Generate one spec given as text into a fresh folder, add files of the test's own (handlers, type
// checks), and compile the package under the strict flags generated code promises (strict-compiler.ts).
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { generate } from '../../src/pipeline.js';
import { STRICT_COMPILER_OPTIONS } from './strict-compiler.js';

export interface CompiledPackage {
  /** check's diagnostics (nothing is generated or compiled when one is an error). */
  readonly diagnostics: readonly unknown[];
  /** tsc's, as `file: TSnnnn message` lines. */
  readonly compileErrors: readonly string[];
  /** Where the JavaScript went (`<dir>/js`). */
  readonly js: string;
}

export async function generateAndCompile(dir: string, name: string, spec: string, files: Readonly<Record<string, string>>): Promise<CompiledPackage> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.yaml`), spec);
  const js = join(dir, 'js');
  const result = await generate([join(dir, `${name}.yaml`)], dir, { out: 'out' });
  if (result.diagnostics.some((d) => d.severity === 'error')) return { diagnostics: result.diagnostics, compileErrors: [], js };
  const pkg = join(dir, 'out', result.models[0]!.folder);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(pkg, file), text);
  const sources = readdirSync(pkg).filter((f) => f.endsWith('.ts')).map((f) => join(pkg, f));
  const program = ts.createProgram(sources, { ...STRICT_COMPILER_OPTIONS, rootDir: pkg, outDir: js });
  const emitted = program.emit();
  const compileErrors = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((d) => `${d.file?.fileName ?? ''}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
  return { diagnostics: result.diagnostics, compileErrors, js };
}
