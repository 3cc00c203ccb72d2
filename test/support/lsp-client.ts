import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { ROOT, tempDir } from './root.js';

/** A project folder of spec files, for the language server to open. */
export function writeProject(files: Record<string, string>): string {
  const dir = tempDir('mcpgen-lsp-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

export const uriOf = (dir: string, name: string): string => pathToFileURL(join(dir, name)).href;

/**
 * `mcpgen lsp --stdio` started as an editor starts it (bin/mcpgen.js, built), talked to through
 * vscode-languageserver-protocol's client side. Every publishDiagnostics is kept, latest per URI.
 */
export class LspClient {
  readonly connection: ProtocolConnection;
  readonly diagnostics = new Map<string, PublishDiagnosticsParams['diagnostics']>();
  /** Every publishDiagnostics, in the order received. */
  readonly published: PublishDiagnosticsParams[] = [];
  private readonly child: ChildProcess;
  private waiters: (() => void)[] = [];

  constructor(readonly dir: string) {
    this.child = spawn(process.execPath, [join(ROOT, 'bin/mcpgen.js'), 'lsp', '--stdio'], { cwd: dir, stdio: ['pipe', 'pipe', 'inherit'] });
    this.connection = createProtocolConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      this.diagnostics.set(p.uri, p.diagnostics);
      this.published.push(p);
      const waiting = this.waiters;
      this.waiters = [];
      for (const w of waiting) w();
    });
    this.connection.listen();
  }

  async initialize(capabilities: Record<string, unknown> = {}): Promise<unknown> {
    const result = await this.connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(this.dir).href, capabilities, workspaceFolders: null });
    await this.connection.sendNotification('initialized', {});
    return result;
  }

  async open(name: string, text: string): Promise<void> {
    await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uriOf(this.dir, name), languageId: 'yaml', version: 1, text } });
  }

  async change(name: string, version: number, text: string): Promise<void> {
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri: uriOf(this.dir, name), version }, contentChanges: [{ text }] });
  }

  /** Resolves once the latest diagnostics of `name` satisfy `ok` (no timing: the test's timeout bounds it). */
  async diagnosticsOf(name: string, ok: (d: PublishDiagnosticsParams['diagnostics']) => boolean): Promise<PublishDiagnosticsParams['diagnostics']> {
    const uri = uriOf(this.dir, name);
    for (;;) {
      const d = this.diagnostics.get(uri);
      if (d !== undefined && ok(d)) return d;
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  request<T>(method: string, params: unknown): Promise<T> {
    return this.connection.sendRequest(method, params) as Promise<T>;
  }

  /** shutdown, exit: resolves with the server's exit code. */
  async close(): Promise<number | null> {
    await this.connection.sendRequest('shutdown');
    const exited = new Promise<number | null>((r) => (this.child.exitCode !== null ? r(this.child.exitCode) : this.child.once('exit', (code) => r(code))));
    await this.connection.sendNotification('exit');
    const code = await exited;
    this.connection.dispose();
    return code;
  }
}
