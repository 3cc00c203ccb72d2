// Emitters add structures to a FileSink; ts-morph prints each file's whole structure once, without
// building a Project or an AST (node-by-node insertion and the formatter pass cost seconds on a
// 1,000-tool spec).
import type {
  ClassDeclarationStructure,
  ExportDeclarationStructure,
  FunctionDeclarationStructure,
  ImportDeclarationStructure,
  InterfaceDeclarationStructure,
  OptionalKind,
  StatementStructures,
  VariableStatementStructure,
} from 'ts-morph';
import { PRINT_OPTIONS, printStructure, StructureKind } from './ts-morph.js';
import { SplicedMembers } from './member-splice.js';

export interface GeneratedFile {
  /** Relative to the server's output directory, with forward slashes. */
  readonly path: string;
  readonly content: string;
  /** `scaffold` files are the user's once written: created when missing, never overwritten or checked. */
  readonly kind: 'generated' | 'scaffold';
}

/** Collects a file's statements as ts-morph structures (or statement text built from escaped parts). */
export class FileSink {
  readonly statements: (string | StatementStructures)[] = [];
  /** Members printed on their own (--watch) and the stand-ins the statements hold for them. */
  readonly spliced = new SplicedMembers();

  addImportDeclarations(list: readonly OptionalKind<ImportDeclarationStructure>[]): void {
    for (const s of list) this.statements.push({ ...s, ...(s.namedImports !== undefined ? { namedImports: namesAsOneText(s.namedImports) } : {}), kind: StructureKind.ImportDeclaration });
  }
  addImportDeclaration(s: OptionalKind<ImportDeclarationStructure>): void {
    this.addImportDeclarations([s]);
  }
  addExportDeclarations(list: readonly OptionalKind<ExportDeclarationStructure>[]): void {
    for (const s of list) this.statements.push({ ...s, kind: StructureKind.ExportDeclaration });
  }
  addInterface(s: OptionalKind<InterfaceDeclarationStructure>): void {
    this.statements.push({ ...s, kind: StructureKind.Interface });
  }
  addFunction(s: OptionalKind<FunctionDeclarationStructure>): void {
    this.statements.push({ ...s, kind: StructureKind.Function });
  }
  addClass(s: OptionalKind<ClassDeclarationStructure>): void {
    this.statements.push({ ...s, kind: StructureKind.Class });
  }
  addVariableStatement(s: OptionalKind<VariableStatementStructure>): void {
    this.statements.push({ ...s, kind: StructureKind.VariableStatement });
  }
  addVariableStatements(list: readonly OptionalKind<VariableStatementStructure>[]): void {
    for (const s of list) this.addVariableStatement(s);
  }
  /** Statement text, for declarations whose multi-line parts must keep their own indentation. */
  addStatements(texts: readonly string[]): void {
    // Text statements get the blank line ts-morph puts between declarations of its own.
    for (const t of texts) this.statements.push(this.statements.length > 0 ? `\n${t}` : t);
  }
}

/**
 * A list of plain names as one writer function printing them as ts-morph would (`A, B, C`): ts-morph
 * makes a new writer, and scans back for a comma position, per name, which for server.ts's and
 * client.ts's thousands of type imports of a 1,000-tool spec was a measurable part of printing them.
 */
function namesAsOneText(names: NonNullable<ImportDeclarationStructure['namedImports']>): NonNullable<ImportDeclarationStructure['namedImports']> {
  if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string')) return names;
  const text = names.join(', ');
  return (writer) => void writer.write(text);
}

export class FileBuilder {
  /** Final text of a file: banner, then the printed statements, ending in one newline. */
  print(_path: string, sink: FileSink, banner: string): string {
    // trimEnd drops what /\s+$/ did, without the regex's scan from every whitespace run of a 3 MB file.
    return `${banner}${printSpliced(sink).trimEnd()}\n`;
  }
}

/** The statements printed, with the members printed on their own put in place of their stand-ins. */
function printSpliced(sink: FileSink): string {
  if (sink.spliced.texts.length === 0) return printStatements(sink.statements);
  return sink.spliced.splice(printStatements(sink.statements)) ?? printStatements(sink.spliced.restore(sink.statements));
}

function printAll(statements: readonly (string | StatementStructures)[]): string {
  return printStructure({ kind: StructureKind.SourceFile, statements: [...statements] }, PRINT_OPTIONS);
}

/**
 * The statements as ts-morph prints them. Text statements at the end of a file (definition.ts's JSON,
 * types.ts's aliases) are where most of a large file's characters are, and code-block-writer scans
 * them a character at a time for string and comment state that nothing after them reads: at the top
 * level it writes text as it is (no indentation; `\r\n` becomes `\n`), and only structures printed
 * later look at that state. So each of those texts goes through ts-morph as a marker followed by its
 * last non-whitespace character and what trails it (what the blank-line rules between statements
 * look at), and the rest is put in place of the marker afterwards: the same text, without the scan.
 * Should a marker be anywhere else in the output, the file is printed the plain way.
 */
function printStatements(statements: readonly (string | StatementStructures)[]): string {
  let first = statements.length;
  while (first > 0 && typeof statements[first - 1] === 'string') first--;
  const heads: string[] = [];
  const stand: (string | StatementStructures)[] = statements.slice(0, first);
  for (const text of joinedTexts(statements.slice(first) as string[])) {
    const last = lastNonWhitespace(text);
    if (last <= 0) {
      stand.push(text);
      continue;
    }
    stand.push(`${marker(heads.length)}${text.slice(last)}`);
    heads.push(text.slice(0, last).replace(/\r\n/g, '\n'));
  }
  if (heads.length === 0) return printAll(statements);
  const printed = printAll(stand);
  const parts: string[] = [];
  let from = 0;
  // Markers must come in order, each once, and nothing else in the output may look like one.
  for (let i = 0; i < heads.length; i++) {
    const at = printed.indexOf(MARKER, from);
    if (at < 0 || !printed.startsWith(marker(i), at)) return printAll(statements);
    parts.push(printed.slice(from, at), heads[i]!);
    from = at + marker(i).length;
  }
  if (printed.includes(MARKER, from)) return printAll(statements);
  parts.push(printed.slice(from));
  return parts.join('');
}

/**
 * Text statements joined where ts-morph puts only a line break between two: after a text that ends in a
 * character other than whitespace and `}` (newLineIfLastNot; after a `}` it wants a blank line), it writes
 * `\n` and then the next text as it is (top level: no indentation). types.ts's thousands of aliases and
 * definition.ts's tool consts become a few statements instead of one each for ts-morph to place.
 */
function joinedTexts(texts: readonly string[]): string[] {
  // Runs joined once at the end: asking a string built by `+` for its last character flattens it each time.
  const runs: string[][] = [];
  for (const text of texts) {
    const run = runs[runs.length - 1];
    if (run !== undefined && endsInLineBreakOnly(run[run.length - 1]!)) run.push(text);
    else runs.push([text]);
  }
  return runs.map((run) => run.join('\n'));
}

function endsInLineBreakOnly(text: string): boolean {
  const c = text.charCodeAt(text.length - 1);
  return text.length > 0 && c !== 0x7d && !isSpace(c);
}

const MARKER = '\u0000mcpgen-text-';

function marker(i: number): string {
  return `${MARKER}${i}\u0000`;
}

/** Index of the last character that is not whitespace as ts-morph's blank-line rules see it (\s); -1 if none. */
function lastNonWhitespace(text: string): number {
  let i = text.length - 1;
  while (i >= 0 && isSpace(text.charCodeAt(i))) i--;
  return i;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || (c >= 0x09 && c <= 0x0d) || (c > 0x7f && /\s/.test(String.fromCharCode(c)));
}
