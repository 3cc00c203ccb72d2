// FileBuilder.print places the text statements that end a file after ts-morph has printed markers for
// them (src/emit/file-builder.ts): the output must be exactly what printing them through ts-morph gives.
import { printStructure, StructureKind, VariableDeclarationKind, type OptionalKind, type ImportDeclarationStructure } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { FileBuilder, FileSink } from '../../src/emit/file-builder.js';

/** What print gave before: every statement through ts-morph. */
function plain(sink: FileSink, banner: string): string {
  return `${banner}${printStructure({ kind: StructureKind.SourceFile, statements: sink.statements }, { indentNumberOfSpaces: 2, useSingleQuote: true }).replace(/\s+$/, '')}\n`;
}

const TEXTS: string[][] = [
  ['export const a = 1;'],
  ['/** doc */\nexport const x = {\n  "k": "v\\\\",\n  "s": "it\'s `odd` /* not a comment */ // nor this"\n};', 'export const y = x;'],
  ['export function f() {\n  return 1;\n}', 'export const after = f();'],
  ['export type T = {\n  a: string;\n};\n\n', '   ', '', 'x;\r\n  y;\r\n'],
  ["const s = 'unclosed;\nconst t = `also ${unclosed", 'const u = "/* open comment";\n/* really open', 'after();'],
  ['}', '{\n}', '\u00a0}\u00a0', 'end;\f'],
  ['export const looksLikeAMarker = "\u0000mcpgen-text-0\u0000";', 'export const second = 2;'],
  ['a;\n\u0000mcpgen-text-1\u0000', 'b;'],
];

function sinkWith(texts: readonly string[], structures: boolean): FileSink {
  const sink = new FileSink();
  if (structures) {
    sink.addImportDeclaration({ moduleSpecifier: './x.js', isTypeOnly: true, namedImports: ['X'] });
    sink.addInterface({ name: 'I', isExported: true, methods: [{ name: 'm', parameters: [{ name: 'a', type: 'string' }], returnType: 'void' }] });
    sink.addVariableStatement({ declarationKind: VariableDeclarationKind.Const, declarations: [{ name: 'c', initializer: "'it''s'" }] });
  }
  sink.addStatements(texts);
  return sink;
}

describe('FileBuilder.print', () => {
  for (const [i, texts] of TEXTS.entries()) {
    for (const structures of [false, true]) {
      it(`prints text statements as ts-morph does (case ${i}${structures ? ', after structures' : ''})`, () => {
        const sink = sinkWith(texts, structures);
        expect(new FileBuilder().print('f.ts', sink, '// banner\n')).toBe(plain(sink, '// banner\n'));
      });
    }
  }

  it('prints runs of text statements as ts-morph does, whatever they end in (2,000 generated runs)', () => {
    const pieces = ['a;', 'export type T = {\n  a: string;\n};', '}', '{', ' ', '\n', '\r\n', "'", '"', '`', '${', '/*', '*/', '//', 'x', '\u00a0', '\t', ''];
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let run = 0; run < 2000; run++) {
      const texts = Array.from({ length: 1 + next(6) }, () => Array.from({ length: next(4) }, () => pieces[next(pieces.length)]).join(''));
      const sink = sinkWith(texts, run % 2 === 0);
      expect(new FileBuilder().print('f.ts', sink, ''), JSON.stringify(texts)).toBe(plain(sink, ''));
    }
  });

  it('prints a file of structures only, or a text followed by structures, as before', () => {
    const sink = new FileSink();
    sink.addStatements(['const first = `a ${b}`;']);
    sink.addClass({ name: 'C', isExported: true, methods: [{ name: 'm', statements: ['return 1;'] }] });
    expect(new FileBuilder().print('f.ts', sink, '')).toBe(plain(sink, ''));
    expect(new FileBuilder().print('f.ts', sinkWith([], true), '')).toBe(plain(sinkWith([], true), ''));
  });

  it('prints named imports given as plain names exactly as ts-morph prints the list', () => {
    const imports: OptionalKind<ImportDeclarationStructure>[] = [
      { moduleSpecifier: '@mcpgen/runtime/server', namedImports: ['type Awaitable', 'createMcpgenServer'] },
      { moduleSpecifier: './one.js', namedImports: ['one'] },
      { moduleSpecifier: './types.js', isTypeOnly: true, namedImports: Array.from({ length: 300 }, (_, i) => `Tool${i}Input`) },
      { moduleSpecifier: './mixed.js', namedImports: ['a', { name: 'b', alias: 'c' }] },
      { moduleSpecifier: './none.js', namedImports: [] },
      { moduleSpecifier: './side-effect.js' },
    ];
    const sink = new FileSink();
    sink.addImportDeclarations(imports);
    const expected = printStructure({ kind: StructureKind.SourceFile, statements: imports.map((i) => ({ ...i, kind: StructureKind.ImportDeclaration })) }, { indentNumberOfSpaces: 2, useSingleQuote: true });
    expect(new FileBuilder().print('f.ts', sink, '')).toBe(`${expected.trimEnd()}\n`);
  });
});
