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
import { printStructure, StructureKind } from './ts-morph.js';

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

  addImportDeclarations(list: readonly OptionalKind<ImportDeclarationStructure>[]): void {
    for (const s of list) this.statements.push({ ...s, kind: StructureKind.ImportDeclaration });
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

export class FileBuilder {
  /** Final text of a file: banner, then the printed statements, ending in one newline. */
  print(_path: string, sink: FileSink, banner: string): string {
    const body = printStructure({ kind: StructureKind.SourceFile, statements: sink.statements }, { indentNumberOfSpaces: 2, useSingleQuote: true }).replace(/\s+$/, '');
    return `${banner}${body}\n`;
  }
}
