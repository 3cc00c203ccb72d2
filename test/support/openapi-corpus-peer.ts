// openapi-mcp-generator (bench/peers, `npm ci --prefix bench/peers`) on the same descriptions as
// openapi-corpus.ts: its CLI generates each, one tsc program compiles them under its generated tsconfig's
// options, each server runs as its own process on 127.0.0.1 against the same mock upstream, and every tool
// is called once (SDK 1.x Streamable HTTP, as it serves) with arguments sampled from its input schema. The
// request the upstream received is checked against the operation as mcpgen's import binds it (method, path,
// query, headers, body), the peer's tool matched to it by name, else by method and path template; credentials are not
// checked (the peer reads other variables). Counts, never throws for one API.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { importOpenApi } from '../../src/import/openapi/index.js';
import { createProgram } from './compiler-host.js';
import type { MockUpstream } from './mock-upstream.js';
import type { ApiOutcome, CorpusApi } from './openapi-corpus.js';
import { expectRequest, proxyView, type Binding } from './openapi-expect.js';
import { freePort } from './ports.js';
import { sample } from './schema-sample.js';
import { ROOT } from './root.js';

type Obj = Record<string, unknown>;
const PEERS = join(ROOT, 'bench/peers');
const CLI = join(PEERS, 'node_modules/openapi-mcp-generator/bin/openapi-mcp-generator.js');

export function peerVersion(): string {
  return (JSON.parse(readFileSync(join(PEERS, 'node_modules/openapi-mcp-generator/package.json'), 'utf8')) as { version: string }).version;
}

interface PeerBuilt {
  readonly api: CorpusApi;
  readonly dir: string;
  readonly outcome: ApiOutcome;
}

/** The peer's CLI on each description (under bench/peers/.out, where its servers find their dependencies), then tsc. */
export function buildPeers(apis: readonly CorpusApi[], toolsPerProgram = 4000): PeerBuilt[] {
  const out = join(PEERS, '.out/corpus');
  rmSync(out, { recursive: true, force: true });
  const built = apis.map((api, i) => {
    const outcome: ApiOutcome = { id: api.id, imported: false, compiled: false, tools: 0, calls: 0, matched: 0, refused: 0, refusals: [], mismatches: [], ms: { import: 0, serve: 0 } };
    const dir = join(out, String(i));
    const t0 = Date.now();
    const r = spawnSync(process.execPath, [CLI, '-i', api.file, '-o', dir, '-t', 'streamable-http', '--force'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
    outcome.ms.import = Date.now() - t0;
    if (r.status === 0 && existsSync(join(dir, 'src/index.ts'))) outcome.imported = true;
    else outcome.failure = `generate: exit ${r.status ?? r.signal}: ${(r.stderr || r.stdout).trim().split('\n').slice(-2).join(' ').slice(0, 300)}`;
    return { api, dir, outcome };
  });
  const ok = built.filter((b) => b.outcome.imported);
  for (let i = 0; i < ok.length; i += Math.max(1, Math.floor(toolsPerProgram / 40))) compileTogether(ok.slice(i, i + Math.max(1, Math.floor(toolsPerProgram / 40))));
  return built;
}

function compileTogether(batch: readonly PeerBuilt[]): void {
  const config = ts.parseJsonConfigFileContent(JSON.parse(readFileSync(join(batch[0]!.dir, 'tsconfig.json'), 'utf8')), ts.sys, batch[0]!.dir);
  const sources = batch.flatMap((b) => readdirSync(join(b.dir, 'src')).filter((f) => f.endsWith('.ts')).map((f) => join(b.dir, 'src', f)));
  // One program: each package's files go to its own build/ (what its `tsc` writes), from the shared root.
  const root = join(batch[0]!.dir, '..');
  const program = createProgram(sources, { ...config.options, rootDir: root, outDir: join(root, 'js') });
  const emitted = program.emit();
  const errors = new Map<PeerBuilt, string[]>();
  for (const d of [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics]) {
    const owner = batch.find((b) => d.file?.fileName.startsWith(`${b.dir}/`)) ?? batch[0]!;
    errors.set(owner, [...(errors.get(owner) ?? []), `${d.file ? relative(root, d.file.fileName) : ''}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`]);
  }
  for (const b of batch) {
    const mine = errors.get(b) ?? [];
    b.outcome.compiled = mine.length === 0;
    if (mine.length > 0) b.outcome.failure = `tsc: ${mine.slice(0, 2).join('; ').slice(0, 400)}`;
    mkdirSync(join(root, 'js', relative(root, b.dir), 'src'), { recursive: true });
    writeFileSync(join(root, 'js', relative(root, b.dir), 'src', 'package.json'), '{"type":"module"}');
  }
}

/** Each compiled peer server started in turn, every tool called once, its upstream request checked. */
export async function servePeers(built: readonly PeerBuilt[], upstream: MockUpstream, answer: (body: unknown) => void): Promise<void> {
  for (const b of built.filter((x) => x.outcome.compiled)) {
    const t0 = Date.now();
    try {
      await serveOne(b, upstream, answer);
    } catch (e) {
      b.outcome.failure = `serve: ${String((e as Error).message ?? e).slice(0, 400)}`;
    }
    b.outcome.ms.serve = Date.now() - t0;
  }
}

async function serveOne(b: PeerBuilt, upstream: MockUpstream, answer: (body: unknown) => void): Promise<void> {
  const { spec } = await importOpenApi(b.api.file, ROOT, { name: b.api.name });
  const { bindings } = proxyView(spec, b.api.name);
  const byOperation = new Map(Object.values(bindings).map((x) => [`${x.method} ${x.path}`, x]));
  const operations = peerOperations(readFileSync(join(b.dir, 'src/index.ts'), 'utf8'));
  const port = await freePort();
  const js = join(b.dir, '..', 'js', relative(join(b.dir, '..'), b.dir), 'src/index.js');
  const child = spawn(process.execPath, [js, '--transport=streamable-http'], { env: { ...process.env, API_BASE_URL: upstream.url, PORT: String(port) }, stdio: ['ignore', 'ignore', 'ignore'], cwd: b.dir });
  try {
    const call = await session(`http://127.0.0.1:${port}/mcp`);
    const tools = ((await call('tools/list', {})) as { tools: { name: string; inputSchema: Obj }[] }).tools;
    for (const tool of tools) {
      b.outcome.tools++;
      b.outcome.calls++;
      const op = operations.get(tool.name);
      // By name first (both take the operationId): AWS puts many operations on `POST /#X-Amz-Target=…`,
      // one path once its fragment (never sent) is gone.
      const binding = bindings[tool.name] ?? (op === undefined ? undefined : byOperation.get(`${op.method.toUpperCase()} ${op.path.replace(/#.*$/s, '')}`));
      const args = sample(tool.inputSchema, (tool.inputSchema.$defs ?? tool.inputSchema.definitions ?? {}) as Obj) as Obj;
      answer([{ any: 'thing' }]);
      const before = upstream.requests.length;
      try {
        const result = (await call('tools/call', { name: tool.name, arguments: args })) as { content?: { text?: string }[] };
        const text = result.content?.[0]?.text ?? '';
        const seen = upstream.requests.slice(before);
        if (text.startsWith(`Invalid arguments for tool '${tool.name}'`) && seen.length === 0) {
          b.outcome.refused++;
          if (b.outcome.refusals.length < 3) b.outcome.refusals.push(text.slice(0, 300));
          continue;
        }
        if (binding === undefined) throw new Error('no operation of the description has this method and path');
        if (seen.length !== 1) throw new Error(`${seen.length} upstream requests; answer: ${text.slice(0, 200)}`);
        await expectRequest({ ...seen[0]!, body: seen[0]!.body.toString(), bytes: seen[0]!.body }, binding, ourArgs(binding, args), '', [], tool.name);
        b.outcome.matched++;
      } catch (e) {
        b.outcome.mismatches.push(`${tool.name}: ${(e as Error).message.split('\n').slice(0, 3).join(' ').slice(0, 300)}`);
      }
    }
  } finally {
    child.kill();
  }
}

/** The peer names arguments after the parameters (`requestBody` for the body); mcpgen's binding after its own. */
function ourArgs(binding: Binding, args: Obj): Obj {
  const out: Obj = {};
  for (const p of binding.params) if (args[p.name] !== undefined) out[p.arg] = args[p.name];
  if (binding.body !== undefined && args.requestBody !== undefined) out[binding.body.arg] = args.requestBody;
  return out;
}

/** Tool name → method and path template, read from the peer's generated tool table. */
function peerOperations(index: string): Map<string, { method: string; path: string }> {
  const out = new Map<string, { method: string; path: string }>();
  for (const m of index.matchAll(/^ {2}\["((?:[^"\\]|\\.)*)", \{[^]*?^ {4}method: "(\w+)",\n {4}pathTemplate: "((?:[^"\\]|\\.)*)",/gm)) out.set(JSON.parse(`"${m[1]}"`), { method: m[2]!, path: JSON.parse(`"${m[3]}"`) });
  return out;
}

/** SDK 1.x Streamable HTTP as the peer serves it: initialize once (waiting for the port), then requests in that session. */
async function session(url: string): Promise<(method: string, params: Obj) => Promise<unknown>> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  let init: Response | undefined;
  for (let i = 0; init === undefined; i++) {
    try {
      init = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'corpus', version: '1' } } }) });
    } catch (e) {
      if (i > 200) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await init.text();
  const sessionHeaders = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-06-18' };
  await (await fetch(url, { method: 'POST', headers: sessionHeaders, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  let id = 1;
  return async (method, params) => {
    const text = await (await fetch(url, { method: 'POST', headers: sessionHeaders, body: JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }) })).text();
    const json = text.startsWith('{') ? text : (text.split('\n').find((l) => l.startsWith('data: ')) ?? 'data: {}').slice(6);
    const message = JSON.parse(json) as { result?: unknown; error?: { message: string } };
    if (message.error !== undefined) throw new Error(message.error.message);
    return message.result;
  };
}
