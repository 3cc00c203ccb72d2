// `generate --watch` reuses each stage's per-tool work (parse/entry-cache.ts, validate's clean-schema set,
// model/tool-cache.ts, emit/member-cache.ts). Over seeded random edits of a realistic spec, every
// incremental run must leave exactly the files, and report exactly the diagnostics, of a full run of the
// same spec text in a fresh pipeline (its own module instances, caches off).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { stringify } from 'yaml';
import { ROOT, tempDir } from '../support/root.js';
import { waitFor } from '../support/ports.js';
import { snapshot } from '../write/support.js';

type Pipeline = typeof import('../../src/pipeline.js');
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SEED = Number(process.env.WATCH_EDIT_SEED ?? 33);
const EDITS = Number(process.env.WATCH_EDITS ?? 20);

/** A small seeded generator (mulberry32): the same edits on every run, another seed for other ones. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function tool(i: number): Json {
  const properties: Json = {
    id: { type: 'string', minLength: 1, description: `Identifier of item ${i}` },
    count: { type: 'integer', minimum: 0, maximum: 1000, default: 10 },
    mode: { type: 'string', enum: ['fast', 'safe', 'thorough'] },
    window: { $ref: '#/$defs/TimeWindow' },
  };
  if (i % 3 === 0) properties.region = { type: 'string', 'x-mcp-header': 'Region' };
  if (i % 2 === 0) properties.note = { type: ['string', 'null'], maxLength: 200 };
  return {
    name: `tool_${i}`,
    title: `Tool ${i}`,
    description: `Tool number ${i}.`,
    annotations: { readOnlyHint: i % 2 === 0 },
    input: { type: 'object', properties, required: ['id'], additionalProperties: false },
    ...(i % 4 === 0 ? {} : { output: { type: 'object', properties: { ok: { type: 'boolean' }, items: { type: 'array', items: { $ref: '#/$defs/Item' } } }, required: ['ok'] } }),
  };
}

/** Large enough (> 128 KB) to be read a list entry at a time, as the 1,000-tool specs of the benchmark are. */
function initialSpec(): Json {
  return {
    mcpgen: 1,
    server: { name: 'watched', version: '1.0.0', description: 'A spec edited under --watch.' },
    $defs: {
      TimeWindow: { type: 'object', properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time' } }, required: ['from'] },
      Item: { type: 'object', properties: { id: { type: 'string' }, score: { type: 'number' } }, required: ['id'] },
    },
    tools: Array.from({ length: 160 }, (_, i) => tool(i)),
    resources: Array.from({ length: 20 }, (_, i) => ({ uri: `docs://page/${i}`, name: `page_${i}`, description: `Page ${i}.`, mimeType: 'text/markdown' })),
    resourceTemplates: [{ uriTemplate: 'docs://item/{id}', name: 'item', description: 'One item.' }],
    prompts: Array.from({ length: 20 }, (_, i) => ({ name: `prompt_${i}`, description: `Prompt ${i}.`, arguments: [{ name: 'topic', description: 'What about.', required: true }] })),
  };
}

type Edit = (spec: Json, pick: (n: number) => number, step: number) => string;

const EDIT_KINDS: Record<string, Edit> = {
  'tool description': (s, pick, k) => ((s.tools[pick(s.tools.length)].description = `Edited description ${k}.`), 'tool description'),
  'add property': (s, pick, k) => ((s.tools[pick(s.tools.length)].input.properties[`extra${k}`] = { type: 'number', minimum: k }), 'add property'),
  'remove property': (s, pick) => (delete s.tools[pick(s.tools.length)].input.properties.mode, 'remove property'),
  'add tool': (s, pick, k) => (s.tools.splice(pick(s.tools.length), 0, { ...tool(1000 + k), name: `added_${k}` }), 'add tool'),
  'remove tool': (s, pick) => (s.tools.splice(pick(s.tools.length), 1), 'remove tool'),
  'rename tool': (s, pick, k) => ((s.tools[pick(s.tools.length)].name = `renamed_${k}`), 'rename tool'),
  'edit prompt': (s, pick, k) => (s.prompts[pick(s.prompts.length)].arguments.push({ name: `extra${k}`, description: `Argument ${k}.` }), 'edit prompt'),
  'edit resource': (s, pick, k) => ((s.resources[pick(s.resources.length)].description = `Resource edited ${k}.`), 'edit resource'),
  'edit $defs': (s, _pick, k) => ((s.$defs.Item.properties.score.maximum = 100 + k), 'edit $defs'),
  'server version': (s, _pick, k) => ((s.server.version = `1.0.${k}`), 'server version'),
};

/** The edits in order: each kind once (a validation error and a `$ref` cycle, each followed by its fix), then seeded random ones. */
function planEdits(): Edit[] {
  const pickKind = random(SEED);
  const kinds = Object.values(EDIT_KINDS);
  const broken: Edit = (s, pick) => {
    const t = s.tools[pick(s.tools.length)];
    t.input.properties.count.type = 'integr'; // MCPG019, and no output
    (s as Json).__broken = t.name;
    return 'validation error';
  };
  const fixed: Edit = (s) => {
    for (const t of s.tools) if (t.input.properties.count?.type === 'integr') t.input.properties.count.type = 'integer';
    delete (s as Json).__broken;
    return 'validation error fixed';
  };
  const cycle: Edit = (s, pick) => {
    s.tools[pick(s.tools.length)].input.properties.loop = { $ref: '#/properties/loop' }; // MCPG040
    return 'ref cycle';
  };
  const noCycle: Edit = (s) => {
    for (const t of s.tools) delete t.input.properties.loop;
    return 'ref cycle fixed';
  };
  const plan = [...kinds, broken, fixed, cycle, noCycle];
  while (plan.length < EDITS) plan.push(kinds[Math.floor(pickKind() * kinds.length)]!);
  return plan;
}

function diagnosticsOf(result: Awaited<ReturnType<Pipeline['generate']>>) {
  return result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.severity} ${d.path} ${d.message}`);
}

describe('generate --watch, incremental', () => {
  it('leaves the same files and diagnostics as a full run after every edit', async () => {
    const incremental = (await import('../../src/pipeline.js')) as Pipeline;
    incremental.enableIncremental();
    vi.resetModules(); // the full runs get their own module instances: no cache of the watch's is shared
    const full = (await import('../../src/pipeline.js')) as Pipeline;
    expect(full.generate).not.toBe(incremental.generate);

    const dir = tempDir('mcpgen-watch-');
    mkdirSync(join(dir, 'specs'));
    const specPath = join(dir, 'specs/watched.yaml');
    const spec = initialSpec();
    // A second spec with the same tools and $defs, never edited: the same entry texts in two specs, and
    // the caches switching between two specs' contexts on every run.
    const twinPath = join(dir, 'specs/twin.yaml');
    writeFileSync(twinPath, stringify({ ...initialSpec(), server: { name: 'twin', version: '1.0.0' } }));
    const pick = random(SEED + 1);
    const index = (n: number) => Math.floor(pick() * n);
    const edits = planEdits();
    const seen = new Set<string>();
    for (let step = -1; step < edits.length; step++) {
      const what = step < 0 ? 'first run' : edits[step]!(spec, index, step);
      seen.add(what);
      const { __broken: _b, ...written } = spec;
      writeFileSync(specPath, stringify(written));
      const a = await incremental.generate([specPath, twinPath], dir, { out: 'inc' });
      const b = await full.generate([specPath, twinPath], dir, { out: 'full' });
      expect(diagnosticsOf(a), `diagnostics after edit ${step} (${what})`).toEqual(diagnosticsOf(b));
      expect(a.plan === undefined, what).toBe(b.plan === undefined);
      if (what === 'validation error') expect(a.diagnostics.some((d) => d.code === 'MCPG019')).toBe(true);
      if (what === 'ref cycle') expect(a.diagnostics.some((d) => d.code === 'MCPG040')).toBe(true);
      const files = snapshot(join(dir, 'inc'));
      const want = snapshot(join(dir, 'full'));
      expect(Object.keys(files), `files after edit ${step} (${what})`).toEqual(Object.keys(want));
      for (const [path, text] of Object.entries(want)) expect(files[path] === text, `${path} after edit ${step} (${what})`).toBe(true);
    }
    expect(seen.size).toBeGreaterThanOrEqual(Object.keys(EDIT_KINDS).length + 5);
  }, 300_000);

  it('the real `generate --watch` process leaves what a full run leaves after each save (needs dist/)', async () => {
    vi.resetModules(); // never the instance the other test turned the caches on in
    const full = (await import('../../src/pipeline.js')) as Pipeline;
    const dir = tempDir('mcpgen-watch-');
    mkdirSync(join(dir, 'specs'));
    const specPath = join(dir, 'specs/watched.yaml');
    const spec = initialSpec();
    writeFileSync(specPath, stringify(spec));
    const child = spawn(process.execPath, [join(ROOT, 'bin/mcpgen.js'), 'generate', 'specs/watched.yaml', '--out', 'inc', '--watch'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const runs = () => stderr.match(/wrote \d+ file/g)?.length ?? 0;
    try {
      await waitFor(() => stderr.includes('for spec changes'), 60_000);
      const pick = random(SEED + 2);
      const index = (n: number) => Math.floor(pick() * n);
      for (const [step, edit] of [EDIT_KINDS['tool description']!, EDIT_KINDS['add tool']!, EDIT_KINDS['rename tool']!, EDIT_KINDS['edit $defs']!].entries()) {
        const what = edit(spec, index, step);
        const before = runs();
        writeFileSync(specPath, stringify(spec));
        await waitFor(() => runs() > before, 60_000).catch(() => expect.fail(`no run after ${what}:\n${stderr}`));
        await full.generate([specPath], dir, { out: 'full' });
        const files = snapshot(join(dir, 'inc'));
        const want = snapshot(join(dir, 'full'));
        expect(Object.keys(files), what).toEqual(Object.keys(want));
        for (const [path, text] of Object.entries(want)) expect(files[path] === text, `${path} after ${what}`).toBe(true);
      }
    } finally {
      child.kill('SIGINT');
    }
  }, 300_000);
});
