// The generator fuzzer: seeded, VALID-looking specs built from hostile identifiers (reserved words,
// Object.prototype members, TypeScript global types, `then`, `__proto__`, unicode, names that collide
// after case and separator changes) and hostile schema shapes (recursion, cycles through every
// combinator, deep $ref chains). The promise under test: `check` has no errors ⇒ the generated code
// compiles under the strict flags ⇒ its server starts and lists every tool ⇒ every tool definition
// on the wire equals the spec (its $defs bundled in, an output root's `type: object` stated) ⇒ every tool reaches its handler, through the
// typed client and through the OpenAI dispatcher. Specs are compiled in batches (one tsc program per
// batch). GEN_FUZZ_SPECS sets the count (`npm run fuzz` runs thousands), GEN_FUZZ_SEED the seed;
// a failure names its spec, kept under .tmp/gen-fuzz/src/<n>/spec.yaml.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { CODES } from '../../src/diagnostics/codes.js';
import { emitServerPackage } from '../../src/emit/index.js';
import { RUNTIME_IMPORTS } from '../../src/common/names.js';
import type { ServerModel } from '../../src/model/ir.js';
import { check } from '../../src/pipeline.js';
import { ROOT } from '../support/root.js';
import { createProgram } from '../support/compiler-host.js';
import { prng, type Prng } from '../support/prng.js';
import { STRICT_COMPILER_OPTIONS } from '../support/strict-compiler.js';

const COUNT = Number(process.env.GEN_FUZZ_SPECS ?? 300);
const SEED = Number(process.env.GEN_FUZZ_SEED ?? 1010);
const BATCH = 150;
const DIR = join(ROOT, '.tmp/gen-fuzz');

const RESERVED = ['break', 'case', 'class', 'const', 'default', 'delete', 'do', 'enum', 'export', 'extends', 'false', 'function', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super', 'this', 'typeof', 'var', 'void', 'with', 'yield', 'let', 'static', 'implements', 'interface', 'private', 'public', 'await', 'async', 'arguments', 'eval', 'undefined', 'NaN', 'any', 'unknown', 'never', 'string', 'number', 'boolean', 'object', 'symbol', 'type', 'keyof', 'readonly', 'declare', 'namespace', 'infer', 'satisfies', 'as', 'is'];
const PROTO = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__proto__', '__defineGetter__', '__lookupSetter__', 'prototype', 'then'];
const GLOBAL_TYPES = ['Record', 'Partial', 'Required', 'Readonly', 'Pick', 'Omit', 'Exclude', 'NonNullable', 'Promise', 'PromiseLike', 'Awaited', 'Array', 'ReadonlyArray', 'Map', 'Set', 'Date', 'Error', 'Object', 'String', 'Number', 'Boolean', 'Symbol', 'Function', 'RegExp', 'JSON', 'Iterable', 'PropertyKey', 'Uppercase'];
const RUNTIME = ['McpgenClient', 'ToolContext', 'CallOptions', 'ClientOptions', 'RequestContext', 'ServerDefinition', 'OpenAiTool', 'Awaitable', 'definition', 'toolDefinitions', 'handlers', 'complete', 'connect', 'close', 'callTool'];
const CASEY = ['get-user', 'get_user', 'getUser', 'GetUser', 'get.user', 'GET_USER', 'a-b', 'a_b', 'aB', 'AB', 'x1', '1x', '_', '__', 'A', 'a'];
const UNICODE = ['café', 'naïve', '名前', 'Ωmega', 'émoji😀', 'ﬁle', 'ǅ'];
const ALL = [...RESERVED, ...PROTO, ...GLOBAL_TYPES, ...RUNTIME, ...CASEY, ...UNICODE];
/** MCP tool names allow only A-Z a-z 0-9 _ - . */
const TOOL_NAMES = ALL.filter((n) => /^[A-Za-z0-9_.-]{1,128}$/.test(n));
/** `$defs` names and elicitation keys are identifiers in the spec format; property and prompt names are free. */
const KEY_NAMES = ALL.filter((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
const SERVER_NAMES = ['fuzz', 'mcpgen', 'Record', 'then', 'constructor', 'Promise', 'class', 'get-user', 'a', 'Client', 'x.y', 'tool_calls'];
const STRINGS = ['', '*/', '`${x}`', '"', "'", '\\', '</script>', '\u2028', 'plain', '__proto__', 'constructor', '😀'];

interface Built {
  readonly spec: Record<string, unknown>;
  /** Expected tools/list entries, computed here from the spec (not by mcpgen). */
  readonly wire: readonly Record<string, unknown>[];
}

/** An object whose keys are always own data properties (a `__proto__` key included). */
const own = (entries: [string, unknown][]): Record<string, unknown> => Object.fromEntries(entries);

function pointer(name: string): string {
  return `#/$defs/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function buildSpec(r: Prng): Built {
  const defNames = [...new Set(Array.from({ length: r.int(6) }, () => r.pick(KEY_NAMES)))];
  const defs: [string, unknown][] = [];
  const leaf = (): Record<string, unknown> => {
    switch (r.int(7)) {
      case 0:
        return { type: 'string', ...(r.next() < 0.3 ? { description: r.pick(STRINGS) } : {}) };
      case 1:
        return { type: 'integer', minimum: 0 };
      case 2:
        return { type: 'boolean' };
      case 3:
        return { type: 'string', enum: [...new Set([r.pick(STRINGS), r.pick(STRINGS), 'x'])] };
      case 4:
        return { const: r.pick(STRINGS) };
      case 5:
        return { type: ['string', 'null'] };
      default:
        return { type: 'number' };
    }
  };
  const ref = (): Record<string, unknown> | undefined => (defNames.length > 0 ? { $ref: pointer(r.pick(defNames)) } : undefined);
  const schema = (depth: number): Record<string, unknown> => {
    if (depth > 3) return ref() ?? leaf();
    switch (r.int(10)) {
      case 0:
      case 1:
        return object(depth);
      case 2:
        return { type: 'array', items: schema(depth + 1) };
      case 3:
      case 4:
        return ref() ?? leaf();
      case 5:
        return { [r.pick(['allOf', 'anyOf', 'oneOf'])]: [schema(depth + 1), schema(depth + 1)] };
      case 6:
        return r.next() < 0.5 ? { not: schema(depth + 1) } : { if: schema(depth + 1), then: schema(depth + 1), ...(r.next() < 0.5 ? { else: schema(depth + 1) } : {}) };
      default:
        return leaf();
    }
  };
  const object = (depth: number): Record<string, unknown> => {
    const keys = [...new Set(Array.from({ length: r.int(4) + 1 }, () => r.pick(ALL)))];
    const props = own(keys.map((k) => [k, r.next() < 0.1 && depth > 0 ? { $ref: '#' } : schema(depth + 1)]));
    const required = keys.filter(() => r.next() < 0.3);
    return { type: 'object', properties: props, ...(required.length ? { required } : {}), ...(r.next() < 0.3 ? { additionalProperties: r.next() < 0.5 ? false : schema(depth + 1) } : {}) };
  };
  for (const name of defNames) {
    switch (r.int(6)) {
      case 0: {
        // A tree: recursion through a property and an array's items (valid).
        defs.push([name, { type: 'object', properties: own([[r.pick(ALL), { type: 'string' }], [r.pick(ALL), { type: 'array', items: { $ref: pointer(name) } }]]) }]);
        break;
      }
      case 1: {
        // A cycle through a combinator, a negation or a condition, possibly via another def (refused).
        const other = r.pick(defNames);
        const back = { $ref: pointer(other === name ? name : other) };
        defs.push([name, r.pick([{ allOf: [back] }, { anyOf: [leaf(), back] }, { oneOf: [back, leaf()] }, { not: back }, { if: back, then: leaf() }, { if: leaf(), then: back }, { if: leaf(), then: leaf(), else: back }, { type: 'object', dependentSchemas: { x: back } }, back])]);
        break;
      }
      default:
        defs.push([name, schema(1)]);
    }
  }
  // A deep chain of pure $refs ending in a leaf (valid).
  if (r.next() < 0.2) {
    const n = 5 + r.int(30);
    for (let i = 0; i < n; i++) defs.push([`Chain${i}`, i === n - 1 ? leaf() : { $ref: pointer(`Chain${i + 1}`) }]);
    defNames.push('Chain0');
  }
  const toolNames = [...new Set(Array.from({ length: r.int(5) + 1 }, () => r.pick(TOOL_NAMES)))];
  const tools = toolNames.map((name) => {
    const input = r.next() < 0.15 ? { type: 'object' } : object(0);
    const output = r.next() < 0.3 ? schema(1) : undefined;
    const elicitKeys = r.next() < 0.25 ? [...new Set([r.pick(KEY_NAMES), r.pick(KEY_NAMES)])] : [];
    return own([
      ['name', name],
      ...(r.next() < 0.3 ? [['description', r.pick(STRINGS)] as [string, unknown]] : []),
      ['input', input],
      ...(output !== undefined ? [['output', output] as [string, unknown]] : []),
      ...(elicitKeys.length ? [['elicit', own(elicitKeys.map((k) => [k, { message: r.pick(STRINGS) || 'm', schema: { type: 'object', properties: own([[r.pick(ALL), { type: 'string' }]]) } }]))] as [string, unknown]] : []),
    ]);
  });
  const prompts = r.next() < 0.4 ? [...new Set([r.pick(ALL), r.pick(ALL)])].map((name) => ({ name, arguments: [{ name: r.pick(ALL), required: r.next() < 0.5 }] })) : [];
  const spec = own([
    ['mcpgen', 1],
    ['server', { name: r.pick(SERVER_NAMES), version: '1.0.0' }],
    ...(defs.length ? [['$defs', own(defs)] as [string, unknown]] : []),
    ['tools', tools],
    ...(prompts.length ? [['prompts', prompts] as [string, unknown]] : []),
  ]);
  const defMap = new Map(defs);
  const wire = tools.map((t) => ({
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    inputSchema: bundle(t.input as Record<string, unknown>, defMap),
    // An accepted output root is an object (MCPG042): the wire states `type: object` (2025-era hosts would get it wrapped).
    ...(t.output !== undefined ? { outputSchema: { ...bundle(t.output as Record<string, unknown>, defMap), type: 'object' } } : {}),
  }));
  return { spec, wire };
}

/** The spec `$defs` a schema uses, transitively, copied into its own `$defs` (what MCP clients receive). */
function bundle(schema: Record<string, unknown>, defs: ReadonlyMap<string, unknown>): Record<string, unknown> {
  const used = new Set<string>();
  const visit = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k === '$ref' && typeof x === 'string' && x.startsWith('#/$defs/')) {
          const name = x.slice('#/$defs/'.length).replace(/~1/g, '/').replace(/~0/g, '~');
          if (defs.has(name) && !used.has(name)) {
            used.add(name);
            visit(defs.get(name));
          }
        } else visit(x);
      }
    }
  };
  visit(schema);
  return used.size === 0 ? schema : { ...schema, $defs: own([...used].map((n) => [n, defs.get(n)])) };
}


interface Clean {
  readonly n: number;
  readonly model: ServerModel;
  readonly built: Built;
}

type Tool = { name: string };
interface GeneratedClient {
  listAllTools(): Promise<Tool[]>;
  close(): Promise<void>;
  [method: string]: unknown;
}

describe('generator fuzzing', () => {
  it(`every one of ${COUNT} seeded hostile specs that check accepts compiles, serves and lists its tools exactly`, async () => {
    rmSync(DIR, { recursive: true, force: true });
    mkdirSync(join(DIR, 'src'), { recursive: true });
    writeFileSync(join(DIR, 'package.json'), '{ "type": "module", "private": true }\n');
    const r = prng(SEED);
    const codes = new Map<string, number>();
    let clean = 0;
    const failures: string[] = [];
    for (let n = 0; n < COUNT; ) {
      // Checked one by one; the clean ones are compiled together, BATCH at a time.
      const batch: Clean[] = [];
      for (; n < COUNT && batch.length < BATCH; n++) {
        const built = buildSpec(r);
        const dir = join(DIR, 'src', String(n));
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'spec.yaml'), stringify(built.spec));
        const result = check([join(dir, 'spec.yaml')], dir);
        for (const d of result.diagnostics) {
          codes.set(d.code, (codes.get(d.code) ?? 0) + 1);
          // Refusals are positioned diagnostics with known codes, never a crash in disguise.
          expect(Object.keys(CODES), `spec ${n}`).toContain(d.code);
          expect(d.line, `spec ${n}`).toBeGreaterThanOrEqual(1);
          expect(d.message, `spec ${n}: ${d.message}`).not.toMatch(/Maximum call stack|\n\s+at /);
        }
        if (result.diagnostics.some((d) => d.severity === 'error')) continue;
        const model = result.models[0]!;
        for (const f of emitServerPackage(model, { packageFiles: false })) if (f.path.endsWith('.ts')) writeFileSync(join(dir, f.path), f.content);
        batch.push({ n, model, built });
      }
      clean += batch.length;
      if (batch.length === 0) continue;

      // ⇒ compiles under the strict flags (one program for the whole batch).
      const files = batch.flatMap(({ n }) => ['types', 'definition', 'server', 'client', 'openai', 'index', 'main', 'handlers'].map((f) => join(DIR, 'src', String(n), `${f}.ts`)));
      const program = createProgram(files, { ...STRICT_COMPILER_OPTIONS, rootDir: join(DIR, 'src'), outDir: join(DIR, 'js') });
      const emitted = program.emit();
      for (const d of [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics]) {
        failures.push(`${d.file?.fileName.slice(DIR.length + 1) ?? ''}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
      }
      // Every name generated code imports from the runtime is one the identifier check knows about.
      for (const file of files) {
        const text = ts.sys.readFile(file)!;
        for (const m of text.matchAll(/^import (?:type )?\{ ([^}]*) \} from 'mcpgen\/runtime\/\w+';$/gm)) {
          for (const name of m[1]!.split(', ').map((s) => s.replace(/^type /, ''))) if (!RUNTIME_IMPORTS.has(name)) failures.push(`${file}: imports ${name}, unknown to RUNTIME_IMPORTS`);
        }
      }
      if (failures.length > 0) break;

      // ⇒ the server starts, lists every tool exactly as the spec says, and dispatches each to its handler.
      for (const { n, model, built } of batch) {
        const js = join(DIR, 'js', String(n));
        const server = (await import(join(js, 'server.js'))) as Record<string, (h: unknown, o: object) => { listen(o: object): Promise<{ url: string; close(ms: number): Promise<void> }> }>;
        const { handlers } = (await import(join(js, 'handlers.js'))) as { handlers: unknown };
        const clientModule = (await import(join(js, 'client.js'))) as Record<string, { connect(t: object): Promise<GeneratedClient> }>;
        const openai = (await import(join(js, 'openai.js'))) as Record<string, (c: unknown, calls: object[]) => Promise<{ content: string }[]>>;
        const running = await server[`create${model.typeStem}Server`]!(handlers, { onHandlerError: () => {} }).listen({ port: 0 });
        const client = await clientModule[`${model.typeStem}Client`]!.connect({ url: running.url });
        try {
          // connect() resolved to the client itself: it is not a thenable.
          expect(typeof client.listAllTools, `spec ${n}`).toBe('function');
          const listed = await client.listAllTools();
          expect(listed, `spec ${n}`).toEqual(built.wire);
          // Each tool through the dispatcher and the typed client method to the server's handler stub
          // (an unknown tool would be a protocol error, answered as {"error": "unknown tool …"} or MCP -32602;
          // a stub that threw is answered with the runtime's generic "Tool <name> failed", never its message).
          const answers = await openai[`dispatch${model.typeStem}ToolCalls`]!(client, model.tools.map((t, i) => ({ id: String(i), function: { name: t.name, arguments: '{}' } })));
          answers.forEach((a, i) => expect(a.content, `spec ${n} tool ${model.tools[i]!.name}`).toMatch(/^\{"error":"Tool .+ failed"\}$|Invalid arguments for tool/));
        } finally {
          await client.close();
          await running.close(100);
        }
      }
    }
    expect(failures).toEqual([]);
    // The dictionary and shapes exercise both sides: most specs are clean, and cycles and collisions are refused.
    expect(clean).toBeGreaterThan(COUNT * 0.3);
    expect(codes.get('MCPG040') ?? 0).toBeGreaterThan(0);
    expect(codes.get('MCPG012') ?? 0).toBeGreaterThan(0);
    console.log(`generator fuzz: ${COUNT} specs, ${clean} clean (compiled, served, listed), refusals by code: ${JSON.stringify(Object.fromEntries([...codes].sort()))}`);
  }, Math.max(300_000, COUNT * 2_000)); // a timeout, not a target: two shared cores
});
