// Generate one spec given as text into a fresh folder, add files of the test's own (handlers, type
// checks), and compile the package under the strict flags generated code promises (strict-compiler.ts).
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { generate } from '../../src/pipeline.js';
import { createProgram } from './compiler-host.js';
import { STRICT_COMPILER_OPTIONS } from './strict-compiler.js';

export interface CompiledPackage {
  /** check's diagnostics (nothing is generated or compiled when one is an error). */
  readonly diagnostics: readonly unknown[];
  /** tsc's, as `file: TSnnnn message` lines. */
  readonly compileErrors: readonly string[];
  /** Where the JavaScript went (`<dir>/js`). */
  readonly js: string;
}

/** `typeCheck: false`: emit only (syntax errors still reported), for a package too large to type-check in a test's time. */
export async function generateAndCompile(dir: string, name: string, spec: string, files: Readonly<Record<string, string>>, options: { readonly typeCheck?: boolean } = {}): Promise<CompiledPackage> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.yaml`), spec);
  const js = join(dir, 'js');
  const result = await generate([join(dir, `${name}.yaml`)], dir, { out: 'out' });
  if (result.diagnostics.some((d) => d.severity === 'error')) return { diagnostics: result.diagnostics, compileErrors: [], js };
  const pkg = join(dir, 'out', result.models[0]!.folder);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(pkg, file), text);
  return { diagnostics: result.diagnostics, compileErrors: compilePackage(pkg, js, options.typeCheck ?? true), js };
}

/** Every .ts file of a generated package folder, compiled strictly into `js`; tsc's errors as lines. */
export function compilePackage(pkg: string, js: string, typeCheck = true): string[] {
  const sources = readdirSync(pkg).filter((f) => f.endsWith('.ts')).map((f) => join(pkg, f));
  const program = createProgram(sources, { ...STRICT_COMPILER_OPTIONS, rootDir: pkg, outDir: js, ...(typeCheck ? {} : { noCheck: true }) });
  const emitted = program.emit();
  return [...(typeCheck ? ts.getPreEmitDiagnostics(program) : program.getSyntacticDiagnostics()), ...emitted.diagnostics].map((d) => `${d.file?.fileName ?? ''}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}
