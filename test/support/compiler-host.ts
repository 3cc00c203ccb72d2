// The in-process tsc programs of one test file share their parsed declaration files: lib.es2023 and
// lib.dom, @types/node, the SDK's and the runtime's .d.ts. Parsing and binding those was most of each
// compile of a small generated package (2.3–2.9 s CPU fresh, 0.5 s with them kept), and files such as
// openapi-proxy.test.ts compile seven packages. Only .d.ts files are kept, and only while their text is
// unchanged, so a program sees exactly what a fresh one would; each program still type-checks from scratch.
import ts from 'typescript';

const kept = new Map<string, { readonly text: string; readonly file: ts.SourceFile }>();

/** A compiler host like `ts.createCompilerHost(options)` whose declaration files are parsed once per process. */
export function sharedCompilerHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    const text = host.readFile(fileName);
    if (text === undefined) {
      onError?.(`cannot read ${fileName}`);
      return undefined;
    }
    if (!fileName.endsWith('.d.ts')) return ts.createSourceFile(fileName, text, languageVersionOrOptions);
    const how = typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions };
    const key = `${fileName}\0${how.languageVersion}\0${how.impliedNodeFormat ?? ''}\0${how.jsDocParsingMode ?? ''}`;
    const hit = kept.get(key);
    if (hit !== undefined && hit.text === text && shouldCreateNewSourceFile !== true) return hit.file;
    const file = ts.createSourceFile(fileName, text, languageVersionOrOptions);
    kept.set(key, { text, file });
    return file;
  };
  return host;
}

/** `ts.createProgram(rootNames, options)` on a shared compiler host. */
export function createProgram(rootNames: readonly string[], options: ts.CompilerOptions): ts.Program {
  return ts.createProgram(rootNames, options, sharedCompilerHost(options));
}
