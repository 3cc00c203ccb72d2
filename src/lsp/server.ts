import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createConnection, StreamMessageReader, StreamMessageWriter, TextDocuments, TextDocumentSyncKind, type Connection, type WorkDoneProgressServerReporter, type Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parseSource, type SourceFile } from '../parse/source.js';
import { complete } from './completion.js';
import { Checker, type Checked } from './checker.js';
import { heapUsed } from './check-worker.js';
import { codeActionFor } from './diagnostics.js';
import { hover } from './hover.js';
import { definition, references, rename, renameRange, type At } from './navigation.js';
import { Project } from './project.js';
import { enableEntryCache } from '../parse/entry-cache.js';
import { indexSpec, type SpecIndex } from './spec-index.js';
import type { LoadedSpec } from '../load/spec-files.js';
import { documentSymbols } from './symbols.js';

/** A check running longer than this shows as progress ("mcpgen: checking specs"); a keystroke's check does not flash it. */
const PROGRESS_AFTER_MS = 250;

/**
 * `mcpgen lsp`: a language server over stdio for spec files and the files they include. Diagnostics are
 * `check`'s (the config's provider targets and handlers included), run in a worker thread with the
 * --watch caches (checker.ts): requests are answered while a check runs, edits made meanwhile are
 * checked together when it ends, and each file's diagnostics carry the version of the text they are for.
 */
export function startLanguageServer(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, fallbackCwd: string): Connection {
  const connection = createConnection(new StreamMessageReader(input), new StreamMessageWriter(output));
  // Hover and the other requests read the spec here too after each edit: only its edited entries anew.
  enableEntryCache();
  const documents = new TextDocuments(TextDocument);
  let project: Project | undefined;
  let checker: Checker | undefined;
  let published = new Set<string>();
  const last = new Map<string, LspDiagnostic[]>();
  /** The URI the editor names each open file by (absolute path → URI). */
  const uris = new Map<string, string>();

  const publish = ({ files, versions }: Checked): void => {
    const now = new Set<string>();
    const send = (file: string, diagnostics: LspDiagnostic[]): void => {
      const uri = uris.get(file) ?? pathToFileURL(file).href;
      now.add(uri);
      if (diagnostics.length > 0) last.set(uri, diagnostics);
      else last.delete(uri);
      const version = versions.get(file);
      void connection.sendDiagnostics({ uri, diagnostics, ...(version !== undefined ? { version } : {}) });
    };
    for (const [file, list] of files) send(file, list);
    // Every open file is told, clean or not: an editor waiting for its version's diagnostics gets them.
    for (const file of versions.keys()) if (!files.has(file)) send(file, []);
    for (const uri of published) {
      if (now.has(uri)) continue;
      last.delete(uri);
      void connection.sendDiagnostics({ uri, diagnostics: [] });
    }
    published = now;
  };
  /** A check that takes a while shows as work in progress (for a client that supports it). */
  let shown: Promise<WorkDoneProgressServerReporter> | undefined;
  let showTimer: NodeJS.Timeout | undefined;
  const progress = (checking: boolean): void => {
    if (checking) {
      showTimer ??= shown === undefined ? setTimeout(() => {
        showTimer = undefined;
        shown = connection.window.createWorkDoneProgress().then((reporter) => (reporter.begin('mcpgen', undefined, 'checking specs'), reporter));
      }, PROGRESS_AFTER_MS) : undefined;
      return;
    }
    clearTimeout(showTimer);
    showTimer = undefined;
    void shown?.then((reporter) => reporter.done());
    shown = undefined;
  };
  const pathOf = (uri: string): string => resolve(fileURLToPath(uri));
  const sync = (doc: TextDocument, text: string | undefined): void => {
    if (!doc.uri.startsWith('file:')) return;
    const path = pathOf(doc.uri);
    if (text === undefined) uris.delete(path);
    else uris.set(path, doc.uri);
    project?.setText(path, text);
    checker?.setText(path, text);
  };
  /** The spec file at a URI as the pipeline reads it, and its spec's index. */
  /** Each spec's index, while the project keeps that spec (until a text changes): it reads the whole YAML document. */
  const indexes = new WeakMap<LoadedSpec, SpecIndex>();
  const sourceAt = (uri: string): { source: SourceFile; at: (offset: number) => At; index: () => SpecIndex | undefined } | undefined => {
    const doc = documents.get(uri);
    if (project === undefined || !uri.startsWith('file:')) return undefined;
    const file = pathOf(uri);
    const spec = project.specOf(file);
    // A file of a spec is answered for open or not (references in a file the editor has not opened).
    const source = spec !== undefined ? [spec.root, ...spec.includes].find((s) => resolve(project!.cwd, s.file) === file)! : doc !== undefined ? parseSource(file, Buffer.from(doc.getText())).source : undefined;
    if (source === undefined) return undefined;
    const p = project;
    const indexOf = (): SpecIndex | undefined => {
      if (spec === undefined) return undefined;
      let index = indexes.get(spec);
      if (index === undefined) indexes.set(spec, (index = indexSpec(spec, p.cwd)));
      return index;
    };
    return { source, at: (offset) => ({ project: p, file, offset }), index: indexOf };
  };
  const offsetOf = (uri: string, position: { line: number; character: number }): number => {
    const doc = documents.get(uri) ?? TextDocument.create(uri, 'yaml', 0, sourceAt(uri)?.source.text ?? '');
    return doc.offsetAt(position);
  };

  connection.onInitialize((params) => {
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri;
    project = new Project(folder ? fileURLToPath(folder) : fallbackCwd);
    const versionOf = (path: string): number | undefined => documents.get(uris.get(path) ?? '')?.version;
    checker = new Checker(project.cwd, versionOf, publish, (message) => connection.console.error(message), progress);
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        completionProvider: { triggerCharacters: [' ', ':', '/', '-', "'", '"'] },
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        documentSymbolProvider: true,
        codeActionProvider: { codeActionKinds: ['quickfix'] },
      },
      serverInfo: { name: 'mcpgen' },
    };
  });
  connection.onInitialized(() => checker?.changed());
  // Opening a document changes its content too: one sync.
  documents.onDidChangeContent((e) => sync(e.document, e.document.getText()));
  documents.onDidClose((e) => sync(e.document, undefined));
  connection.onDidChangeWatchedFiles(() => {
    project?.findRoots();
    checker?.rootsChanged();
  });

  connection.onHover(({ textDocument, position }) => {
    const s = sourceAt(textDocument.uri);
    return s === undefined ? null : (hover(s.source, offsetOf(textDocument.uri, position), s.index) ?? null);
  });
  connection.onCompletion(({ textDocument, position }) => {
    const doc = documents.get(textDocument.uri);
    const s = sourceAt(textDocument.uri);
    if (doc === undefined || s === undefined) return [];
    const offset = doc.offsetAt(position);
    const { items, from } = complete(doc.getText(), offset, { index: s.index(), root: project?.specOf(pathOf(textDocument.uri))?.root.value });
    const range = { start: doc.positionAt(from), end: position };
    return items.map((item) => ({ ...item, textEdit: { range, newText: item.insertText ?? item.label } }));
  });
  connection.onDefinition(({ textDocument, position }) => {
    const s = sourceAt(textDocument.uri);
    return s === undefined ? [] : definition(s.at(offsetOf(textDocument.uri, position)));
  });
  connection.onReferences(({ textDocument, position, context }) => {
    const s = sourceAt(textDocument.uri);
    return s === undefined ? [] : references(s.at(offsetOf(textDocument.uri, position)), context.includeDeclaration);
  });
  connection.onPrepareRename(({ textDocument, position }) => {
    const s = sourceAt(textDocument.uri);
    return (s === undefined ? undefined : renameRange(s.at(offsetOf(textDocument.uri, position)))) ?? null;
  });
  connection.onRenameRequest(({ textDocument, position, newName }) => {
    const s = sourceAt(textDocument.uri);
    return (s === undefined ? undefined : rename(s.at(offsetOf(textDocument.uri, position)), newName)) ?? null;
  });
  connection.onDocumentSymbol(({ textDocument }) => {
    const s = sourceAt(textDocument.uri);
    return s === undefined ? [] : documentSymbols(s.source);
  });
  connection.onCodeAction(({ textDocument, context }) => {
    if (project === undefined) return [];
    const known = last.get(textDocument.uri) ?? [];
    // A client that does not send `data` back gets it from what was published.
    const withData = context.diagnostics.map((d) => d.data !== undefined ? d : (known.find((k) => k.code === d.code && k.message === d.message && k.range.start.line === d.range.start.line) ?? d));
    return withData.flatMap((d) => codeActionFor(d, project!.cwd) ?? []);
  });

  // Not LSP: what `npm run bench` reads to judge that memory stays flat across edits (docs/editor.md).
  connection.onRequest('mcpgen/memory', async () => ({ serverHeap: heapUsed(), checkerHeap: (await checker?.memory()) ?? 0, rss: process.memoryUsage().rss }));

  documents.listen(connection);
  connection.listen();
  return connection;
}
