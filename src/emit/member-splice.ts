// Members printed on their own and spliced into the file in place of a stand-in, rather than printed by
// ts-morph with the whole file: server.ts's and client.ts's per-tool methods (member-text.ts writes them
// without ts-morph; --watch keeps each tool's text and prints only an edited tool's again). In the file's
// structure, one stand-in, whose name is a marker, holds the place of a run of members; FileBuilder.print
// puts their text in its place. The text is ts-morph's for those members alone, at the indentation members
// have (no blank-line rule between interface members; every class method has a body, so the stand-in keeps
// the blank lines around the run, and the run's own methods are joined by one).
import type { MethodDeclarationStructure, MethodSignatureStructure, OptionalKind } from 'ts-morph';
import { PRINT_OPTIONS, printStructure, StructureKind } from './ts-morph.js';

export const MEMBER_MARKER = '\u0000mcpgen-member-';

/** What replaces the stand-ins of one file: member texts by marker index. */
export class SplicedMembers {
  readonly texts: string[] = [];
  /** The members themselves by stand-in name, to print the plain way should splicing fail. */
  private readonly originals = new Map<string, readonly object[]>();

  /** A stand-in for these interface methods; `text` is their printed members, in order (signatureText each). */
  signatures(text: string, methods: readonly OptionalKind<MethodSignatureStructure>[]): OptionalKind<MethodSignatureStructure> {
    return { name: this.marker(text, methods) };
  }

  /** A stand-in for these class methods (each has a body); `texts` their printed members, in order (methodText each). */
  methods(texts: readonly string[], methods: readonly OptionalKind<MethodDeclarationStructure>[]): OptionalKind<MethodDeclarationStructure> {
    // Class members are printed a blank line apart.
    return { name: this.marker(texts.join('\n'), methods), statements: [] };
  }

  /** The statements with every stand-in put back as the member it stands for. */
  restore<T>(statements: readonly T[]): T[] {
    return statements.map((s) => {
      const methods = typeof s === 'object' && s !== null ? (s as { methods?: { name: string }[] }).methods : undefined;
      if (methods === undefined) return s;
      return { ...s, methods: methods.flatMap((m) => this.originals.get(m.name) ?? [m]) };
    });
  }

  private marker(text: string, originals: readonly object[]): string {
    this.texts.push(text);
    const name = `${MEMBER_MARKER}${this.texts.length - 1}\u0000`;
    this.originals.set(name, originals);
    return name;
  }

  /**
   * The printed file with every stand-in replaced: from the start of its line to the end of the line
   * holding its `;` (signature) or its closing `}` (method, the first line after it at its indentation).
   * `undefined` when a stand-in is not where it should be: the caller prints the plain way.
   */
  splice(printed: string): string | undefined {
    const parts: string[] = [];
    let from = 0;
    for (let i = 0; i < this.texts.length; i++) {
      const mark = `${MEMBER_MARKER}${i}\u0000`;
      const at = printed.indexOf(mark, from);
      if (at < 0) return undefined;
      const lineStart = printed.lastIndexOf('\n', at) + 1;
      const indent = printed.slice(lineStart, at);
      if (!/^ *$/.test(indent)) return undefined;
      const afterName = printed.slice(at + mark.length);
      let end: number;
      if (afterName.startsWith('();\n')) end = at + mark.length + 4;
      else if (afterName.startsWith(`() {\n${indent}}\n`)) end = at + mark.length + 6 + indent.length + 1;
      else return undefined;
      parts.push(printed.slice(from, lineStart), this.texts[i]!);
      from = end;
    }
    if (printed.includes(MEMBER_MARKER, from)) return undefined;
    parts.push(printed.slice(from));
    return parts.join('');
  }
}

/** One interface method as ts-morph prints it among the members: two-space indented, ending in a newline. */
export function signatureText(method: OptionalKind<MethodSignatureStructure>): string {
  return membersOf(printStructure({ kind: StructureKind.Interface, name: 'M', methods: [method] }, PRINT_OPTIONS));
}

/** One class method as ts-morph prints it among the members (the blank lines around it are the class's). */
export function methodText(method: OptionalKind<MethodDeclarationStructure>): string {
  return membersOf(printStructure({ kind: StructureKind.Class, name: 'M', methods: [method] }, PRINT_OPTIONS));
}

function membersOf(printed: string): string {
  const open = printed.indexOf('{\n') + 2;
  const close = printed.lastIndexOf('\n}');
  return `${printed.slice(open, close)}\n`;
}
