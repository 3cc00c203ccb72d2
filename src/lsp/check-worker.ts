// `mcpgen lsp`'s checks, in a worker thread (node:worker_threads; built as dist/cli/lsp-worker.cjs), so
// that hover, completion and the other requests are answered while a large spec is being checked.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import { enableIncremental } from '../pipeline.js';
import { toLsp } from './diagnostics.js';
import { Project } from './project.js';

/** What the server sends: the editor's texts changed since the last check (null: back to the disk). */
export interface CheckRequest {
  readonly id: number;
  readonly texts: readonly (readonly [path: string, text: string | null])[];
  /** A file was created, deleted or renamed: find the root specs again first. */
  readonly findRoots: boolean;
}

/** The `mcpgen/memory` request (server.ts): how much heap the checks hold. */
export interface MemoryRequest {
  readonly memory: true;
}

/** What comes back: each file's diagnostics (absolute paths), or why the check failed; or the heap in use. */
export type CheckReply =
  | { readonly id: number; readonly files: readonly (readonly [path: string, diagnostics: LspDiagnostic[]])[] }
  | { readonly id: number; readonly failed: string }
  | { readonly heapUsed: number };

/** The heap in use, after a full collection when node runs with --expose-gc (without it: live and garbage alike). */
export function heapUsed(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

export interface CheckerData {
  readonly role: 'mcpgen-lsp-check';
  readonly cwd: string;
}

function serve(cwd: string): void {
  // The --watch machinery: each stage keeps per-entry results while an entry's text is unchanged.
  enableIncremental();
  const project = new Project(cwd);
  parentPort!.on('message', (request: CheckRequest | MemoryRequest) => {
    if ('memory' in request) {
      parentPort!.postMessage({ heapUsed: heapUsed() } satisfies CheckReply);
      return;
    }
    for (const [path, text] of request.texts) project.setText(path, text ?? undefined);
    if (request.findRoots) project.findRoots();
    let reply: CheckReply;
    try {
      const result = project.check();
      const byFile = toLsp([...result.configDiagnostics, ...result.diagnostics], result.sources, project.cwd);
      reply = { id: request.id, files: [...byFile] };
    } catch (e) {
      reply = { id: request.id, failed: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    }
    parentPort!.postMessage(reply);
  });
}

const data = workerData as Partial<CheckerData> | undefined;
if (!isMainThread && parentPort !== null && data?.role === 'mcpgen-lsp-check') serve(data.cwd!);
