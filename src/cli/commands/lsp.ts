import type { Parsed } from '../args.js';
import type { Io } from '../report.js';

/**
 * `mcpgen lsp [--stdio]`: the language server (src/lsp/) on stdin/stdout until the editor sends `exit`.
 * Loaded only by this command, so no other command loads vscode-languageserver.
 */
export async function runLsp(_args: Parsed, io: Io): Promise<number> {
  const { startLanguageServer } = await import('../../lsp/server.js');
  const connection = startLanguageServer(process.stdin, process.stdout, io.cwd);
  return new Promise<number>((done) => connection.onExit(() => done(0)));
}
