// Generate one spec given as text into a fresh folder, add files of the test's own (handlers, type
// checks), and compile the package under the strict flags generated code promises (strict-compiler.ts).
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import ts from 'typescript';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
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
  const generated = await generatePackage(dir, name, spec, files);
  if (generated.pkg === undefined) return { diagnostics: generated.diagnostics, compileErrors: [], js: generated.js };
  return { diagnostics: generated.diagnostics, compileErrors: compilePackage(generated.pkg, generated.js, options.typeCheck ?? true), js: generated.js };
}

export interface PackageToBuild {
  readonly dir: string;
  readonly name: string;
  readonly spec: string;
  readonly files?: Readonly<Record<string, string>>;
}

/**
 * generateAndCompile for several packages, type-checked in one tsc program: each package's files and
 * errors are its own (the generated modules declare nothing global), but the SDK's and the runtime's
 * types are resolved once rather than once per package (openapi-proxy.test.ts: seven packages).
 */
export async function generateAndCompileMany(packages: readonly PackageToBuild[]): Promise<CompiledPackage[]> {
  const generated = [];
  for (const p of packages) generated.push(await generatePackage(p.dir, p.name, p.spec, p.files ?? {}));
  const folders = generated.flatMap((g) => (g.pkg === undefined ? [] : [{ pkg: g.pkg, js: g.js }]));
  const errors = compilePackages(folders, true);
  return generated.map((g) => ({ diagnostics: g.diagnostics, js: g.js, compileErrors: g.pkg === undefined ? [] : errors.filter((e) => e.pkg === undefined || e.pkg === g.pkg).map((e) => e.line) }));
}

/** The spec written to `<dir>/<name>.yaml` and generated into `<dir>/out`, with the test's own files added (no `pkg` when check failed). */
async function generatePackage(dir: string, name: string, spec: string, files: Readonly<Record<string, string>>): Promise<{ diagnostics: readonly Diagnostic[]; js: string; pkg?: string }> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.yaml`), spec);
  const js = join(dir, 'js');
  const result = await generate([join(dir, `${name}.yaml`)], dir, { out: 'out' });
  if (result.diagnostics.some((d) => d.severity === 'error')) return { diagnostics: result.diagnostics, js };
  const pkg = join(dir, 'out', result.models[0]!.folder);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(pkg, file), text);
  return { diagnostics: result.diagnostics, js, pkg };
}

/** Every .ts file of a generated package folder, compiled strictly into `js`; tsc's errors as lines. */
export function compilePackage(pkg: string, js: string, typeCheck = true): string[] {
  return compilePackages([{ pkg, js }], typeCheck).map((e) => e.line);
}

/** Generated package folders compiled in one program, each into its own `js` folder; each error with the folder it is in. */
function compilePackages(folders: readonly { readonly pkg: string; readonly js: string }[], typeCheck: boolean): { pkg?: string; line: string }[] {
  const sources = folders.flatMap(({ pkg }) => readdirSync(pkg).filter((f) => f.endsWith('.ts')).map((f) => join(pkg, f)));
  const single = folders.length === 1 ? { rootDir: folders[0]!.pkg, outDir: folders[0]!.js } : {};
  const program = createProgram(sources, { ...STRICT_COMPILER_OPTIONS, ...single, ...(typeCheck ? {} : { noCheck: true }) });
  // Without rootDir/outDir each .js is written beside its .ts; it goes to its package's js folder instead.
  const writeFile: ts.WriteFileCallback = (file, text) => {
    const folder = folders.find(({ pkg }) => dirname(file) === pkg);
    if (folder === undefined) return ts.sys.writeFile(file, text);
    mkdirSync(folder.js, { recursive: true });
    writeFileSync(join(folder.js, basename(file)), text);
  };
  const emitted = program.emit(undefined, folders.length === 1 ? undefined : writeFile);
  const owner = (file: string | undefined) => folders.find(({ pkg }) => file !== undefined && dirname(file) === pkg)?.pkg;
  return [...(typeCheck ? ts.getPreEmitDiagnostics(program) : program.getSyntacticDiagnostics()), ...emitted.diagnostics].map((d) => {
    const pkg = owner(d.file?.fileName);
    return { ...(pkg === undefined ? {} : { pkg }), line: `${d.file?.fileName ?? ''}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}` };
  });
}
