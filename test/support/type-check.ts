// Compiling a consumer of generated code against a provider SDK's types (test/e2e/openai-bridge.test.ts,
// test/e2e/provider-bridges.test.ts): the strict options generated code promises, a control file that
// exists only in memory (it must fail, so the check can fail), and a scan for type assertions.
import ts from 'typescript';
import { sharedCompilerHost } from './compiler-host.js';
import { STRICT_COMPILER_OPTIONS } from './strict-compiler.js';

/** `files` and `control` (path → in-memory text) in one program (the SDK types load once); messages per file. */
export function diagnosticsByFile(files: readonly string[], control: ReadonlyMap<string, string>): Map<string, string[]> {
  const options = { ...STRICT_COMPILER_OPTIONS, noEmit: true };
  const host = sharedCompilerHost(options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  const getSource = host.getSourceFile.bind(host);
  host.readFile = (f) => control.get(f) ?? read(f);
  host.fileExists = (f) => control.has(f) || exists(f);
  host.getSourceFile = (f, v, ...rest) => (control.has(f) ? ts.createSourceFile(f, control.get(f)!, v) : getSource(f, v, ...rest));
  const all = [...files, ...control.keys()];
  const program = ts.createProgram(all, options, host);
  return new Map(all.map((f) => [f, ts.getPreEmitDiagnostics(program, program.getSourceFile(f)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))]));
}

/** Type assertions (`x as T`, `<T>x`, `x!`, `satisfies`) anywhere in a source file. */
export function assertionsIn(file: string): string[] {
  const source = ts.createSourceFile(file, ts.sys.readFile(file)!, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node) || ts.isSatisfiesExpression(node)) found.push(node.getText(source));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
