// One ts-morph Project per generation run, in memory, never type-checked: emitters add structures in
// bulk and each file is printed once.
import { IndentationText, NewLineKind, Project, QuoteKind, type SourceFile } from 'ts-morph';

export interface GeneratedFile {
  /** Relative to the server's output directory, with forward slashes. */
  readonly path: string;
  readonly content: string;
  /** `scaffold` files are the user's once written: created when missing, never overwritten or checked. */
  readonly kind: 'generated' | 'scaffold';
}

export class FileBuilder {
  readonly #project = new Project({
    useInMemoryFileSystem: true,
    skipFileDependencyResolution: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      quoteKind: QuoteKind.Single,
      newLineKind: NewLineKind.LineFeed,
      useTrailingCommas: true,
    },
  });

  file(path: string): SourceFile {
    return this.#project.createSourceFile(`/out/${path}`, '', { overwrite: true });
  }

  /** Final text of a file: banner, then the printed statements, ending in one newline. */
  print(source: SourceFile, banner: string): string {
    source.formatText({ indentSize: 2, tabSize: 2, convertTabsToSpaces: true, ensureNewLineAtEndOfFile: true });
    const body = source.getFullText().replace(/\s+$/, '');
    return `${banner}${body}\n`;
  }
}
