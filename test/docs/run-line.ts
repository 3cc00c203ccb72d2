// Runs one shell line of README or docs/ for real, in a work folder inside the repository (so the
// generated packages resolve @mcpgen/runtime and the SDK from its node_modules, as in a project that
// installed them). `npx mcpgen` and `npx tsc` run the same bins npx would find, without npx's start-up.
// A `node generated/<server>/dist/main.js` line starts a server; it passes when it answers (stdio: an
// initialize; HTTP: tools/list), and stays up until the page is done with it (later lines may use it).
// An `npx tsc -p <dir>` line whose folder an earlier one compiled, sources and output byte for byte the
// same since, has that line's outcome: README and docs/openapi.md each compile the same petstore package.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { ROOT } from '../support/root.js';
import { words } from './markdown.js';

export interface Outcome {
  readonly code: number | null;
  readonly output: string;
}

export interface Session {
  readonly cwd: string;
  /** What a page's line says, as this run has it (`http://127.0.0.1:3000/mcp` → a server's real URL). */
  readonly substitute: (word: string) => string;
  readonly servers: ChildProcess[];
  /** URL of each HTTP server started, by the line that started it. */
  readonly urls: Map<string, string>;
}

const BINS: Record<string, string> = { mcpgen: join(ROOT, 'bin/mcpgen.js'), tsc: join(ROOT, 'node_modules/typescript/bin/tsc') };

/** A line's commands (split at `&&`), each as env assignments and words. */
export function commands(line: string): { env: Record<string, string>; argv: string[] }[] {
  return line.split('&&').map((part) => {
    const w = words(part);
    const env: Record<string, string> = {};
    while (w.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(w[0]!)) {
      const [k, ...v] = w.shift()!.split('=');
      env[k!] = v.join('=');
    }
    return { env, argv: w };
  }).filter((c) => c.argv.length > 0);
}

/** What each `npx tsc -p <dir>` run left: the folder's sources and its dist/, hashed, and the outcome. */
const compiles = new Map<string, { readonly sources: string; readonly output: string; readonly outcome: Outcome }>();

/** sha256 over the files under `dir` (path and bytes), dist/ left out or alone. */
function treeHash(dir: string, part: 'sources' | 'output'): string {
  const hash = createHash('sha256');
  const root = part === 'output' ? join(dir, 'dist') : dir;
  if (!existsSync(root)) return 'none';
  const files = readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
  for (const f of files) if (part === 'output' || !f.startsWith(join(dir, 'dist/'))) hash.update(`${f}\n`).update(readFileSync(f));
  return hash.digest('hex');
}

/**
 * {@link run}, except for `npx tsc -p <dir>` over the sources an earlier `npx tsc -p <dir>` of this session
 * compiled with its output untouched since: that run's outcome (tsc is deterministic; ~6 s of CPU each).
 */
export async function runOrReuse(session: Session, argv: readonly string[], env: Record<string, string> = {}): Promise<Outcome> {
  const project = argv.length === 4 && argv[0] === 'npx' && argv[1] === 'tsc' && argv[2] === '-p' && Object.keys(env).length === 0 ? join(session.cwd, argv[3]!) : undefined;
  if (project === undefined) return run(session, argv, env);
  const before = compiles.get(project);
  if (before !== undefined && before.sources === treeHash(project, 'sources') && before.output === treeHash(project, 'output')) return before.outcome;
  const outcome = await run(session, argv, env);
  compiles.set(project, { sources: treeHash(project, 'sources'), output: treeHash(project, 'output'), outcome });
  return outcome;
}

/** Runs a command to its end; `node …/main.js` servers go through {@link startServer} instead. */
export function run(session: Session, argv: readonly string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<Outcome> {
  const [cmd, ...args] = argv.map(session.substitute);
  const real = cmd === 'npx' && BINS[args[0]!] !== undefined ? [process.execPath, BINS[args[0]!]!, ...args.slice(1)] : [cmd!, ...args];
  return new Promise((resolve) => {
    const child = spawn(real[0]!, real.slice(1), { cwd: session.cwd, env: { ...process.env, ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => void (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => void (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Starts a generated server as the line says (`--port N` → a free port) and probes it; resolves with what it answered. */
export async function startServer(session: Session, line: string, argv: readonly string[], env: Record<string, string>): Promise<Outcome> {
  const args = argv.slice(1).map(session.substitute);
  const portAt = args.indexOf('--port');
  // The page's port, or the default 3000 a line without --port binds, may be taken on a shared machine
  // (a Node 22 run once found 0.0.0.0:3000 in use): a free one instead.
  if (portAt >= 0) args[portAt + 1] = '0';
  else if (args.includes('--http')) args.push('--port', '0');
  const child = spawn(process.execPath, args, { cwd: session.cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  session.servers.push(child);
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => void (stderr += c.toString()));
  const exited = new Promise<Outcome>((resolve) => child.on('exit', (code) => resolve({ code, output: `exited ${code}: ${stderr}` })));
  if (!args.includes('--http')) return Promise.race([exited, initializeOverStdio(child), timeout(20_000, () => stderr)]);
  const url = await Promise.race([waitForUrl(child, () => stderr), exited.then(() => undefined), timeout(20_000, () => stderr).then(() => undefined)]);
  if (url === undefined) return { code: child.exitCode, output: `no "listening on" line: ${stderr}` };
  session.urls.set(line, url);
  const allowed = args[args.indexOf('--allowed-hosts') + 1];
  const host = args.includes('--allowed-hosts') && allowed !== undefined ? allowed.split(',')[0]! : undefined;
  return probeHttp(url, host);
}

function timeout(ms: number, stderr: () => string): Promise<Outcome> {
  return new Promise((resolve) => setTimeout(() => resolve({ code: null, output: `no answer within ${ms} ms: ${stderr()}` }), ms).unref());
}

function waitForUrl(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise((resolve) => {
    const look = () => {
      const m = /listening on (\S+)/.exec(stderr());
      if (m !== null) {
        child.stderr!.off('data', look);
        resolve(m[1]!);
      }
    };
    child.stderr!.on('data', look);
  });
}

/** An initialize (2025-11-25, what hosts send today) over stdin; the answer's serverInfo. */
function initializeOverStdio(child: ChildProcess): Promise<Outcome> {
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'docs-test', version: '1' } } };
  child.stdin!.write(`${JSON.stringify(init)}\n`);
  return new Promise((resolve) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.includes('"id":1'));
      if (line !== undefined) resolve({ code: 0, output: `stdio: ${line}` });
    });
  });
}

/**
 * tools/list (2026-07-28) against the server at `url`, on 127.0.0.1 whatever host it bound. With
 * `--allowed-hosts`, sent with that Host, and once more with a name it does not list, which must get 403.
 */
async function probeHttp(url: string, allowedHost: string | undefined): Promise<Outcome> {
  const { port, pathname } = new URL(url);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });
  const post = (host: string) => new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathname, method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => void (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
  const answer = await post(allowedHost === undefined ? `127.0.0.1:${port}` : `${allowedHost}:${port}`);
  const listed = answer.status === 200 && answer.text.includes('"tools"');
  if (allowedHost === undefined) return { code: listed ? 0 : 1, output: `HTTP ${answer.status}: ${answer.text.slice(0, 300)}` };
  const other = await post(`elsewhere.example:${port}`); // neither listed nor a localhost name
  return { code: listed && other.status === 403 ? 0 : 1, output: `HTTP ${answer.status} as ${allowedHost}, ${other.status} as elsewhere.example: ${answer.text.slice(0, 200)}` };
}
