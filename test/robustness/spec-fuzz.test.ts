// Seeded mutations of the example specs: check and generate must never throw, never print a stack
// trace, and either succeed or report positioned diagnostics. FUZZ_SPECS raises the count.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Document, isMap, isSeq, parseDocument, YAMLMap, YAMLSeq } from 'yaml';
import { describe, expect, it } from 'vitest';
import { CODES } from '../../src/diagnostics/codes.js';
import { emitServerPackage } from '../../src/emit/index.js';
import { check } from '../../src/pipeline.js';
import { ROOT, tempDir } from '../support/root.js';
import { prng, type Prng } from '../support/prng.js';

const COUNT = Number(process.env.FUZZ_SPECS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 4242);
const SPECS = readdirSync(join(ROOT, 'specs')).filter((f) => f.endsWith('.yaml')).map((f) => readFileSync(join(ROOT, 'specs', f), 'utf8'));

function randomScalar(r: Prng): unknown {
  return r.pick<unknown>([null, true, false, 0, -1, 1.5, 1e308, '', r.string(), 'x'.repeat(r.int(3) === 0 ? 100_000 : 10), [], {}, [r.string()], { [r.string(4)]: r.string() }]);
}

/** Each example's YAML document, parsed once: a mutant edits a deep copy (parsing it again per mutant was a third of this file's CPU). */
const DOCUMENTS = new Map<string, Document.Parsed>();

/** Structural mutations on the YAML document (keys deleted, duplicated, retyped; deep nesting). */
function mutateDocument(text: string, r: Prng): string {
  let parsed = DOCUMENTS.get(text);
  if (parsed === undefined) DOCUMENTS.set(text, (parsed = parseDocument(text)));
  const doc = parsed.clone();
  const nodes: (YAMLMap | YAMLSeq)[] = [];
  const walk = (n: unknown) => {
    if (isMap(n) || isSeq(n)) {
      nodes.push(n);
      for (const item of n.items) walk(isMap(n) ? (item as { value: unknown }).value : item);
    }
  };
  walk(doc.contents);
  for (let k = 0, steps = r.int(4) + 1; k < steps && nodes.length > 0; k++) {
    const node = r.pick(nodes);
    if (node.items.length === 0) continue;
    const i = r.int(node.items.length);
    switch (r.int(5)) {
      case 0:
        node.items.splice(i, 1);
        break;
      case 1:
        node.items.push(node.items[i] as never);
        break;
      case 2:
        if (isMap(node)) (node.items[i] as { value: unknown }).value = doc.createNode(randomScalar(r));
        else node.items[i] = doc.createNode(randomScalar(r)) as never;
        break;
      case 3: {
        let deep: unknown = r.string(3);
        for (let d = 0; d < 50 + r.int(200); d++) deep = r.next() < 0.5 ? [deep] : { k: deep };
        if (isMap(node)) (node.items[i] as { value: unknown }).value = doc.createNode(deep);
        else node.items[i] = doc.createNode(deep) as never;
        break;
      }
      default:
        if (isMap(node)) node.set(r.pick(['name', 'x-mcp-header', 'type', 'uri', 'uriTemplate', '$ref', 'required', 'elicit', r.string(5)]), doc.createNode(randomScalar(r)));
    }
  }
  return doc.toString();
}

/** Byte-level damage: truncation, invalid UTF-8, duplicated keys, alias bombs. */
function mutateBytes(text: string, r: Prng): Buffer {
  switch (r.int(5)) {
    case 0:
      return Buffer.from(text.slice(0, r.int(text.length)));
    case 1: {
      const b = Buffer.from(text);
      const at = r.int(b.length);
      return Buffer.concat([b.subarray(0, at), Buffer.from([r.pick([0xff, 0xc3, 0xe2, 0x80, 0xf0])]), b.subarray(at)]);
    }
    case 2: {
      const lines = text.split('\n');
      const i = r.int(lines.length);
      lines.splice(i, 0, lines[i] ?? '');
      return Buffer.from(lines.join('\n'));
    }
    case 3: {
      const levels = Array.from({ length: 9 }, (_, i) => `l${i + 1}: &l${i + 1} [${Array(10).fill(`*l${i}`).join(',')}]`);
      return Buffer.from(`l0: &l0 ["lol"]\n${levels.join('\n')}\n${text}`);
    }
    default:
      return Buffer.from(text.replace(/: /g, () => (r.next() < 0.02 ? ':' : ': ')));
  }
}

// The mutants are checked in slices of SLICE, one test each, drawn from one seeded stream in order (vitest
// runs a file's tests one after another): the same mutants as one loop, and each slice's time limit is far
// above what it needs (~1 s idle), so a busy machine slows the verdict down but does not change it.
const SLICE = 100;
const SLICES = Array.from({ length: Math.ceil(COUNT / SLICE) }, (_, i) => Math.min(SLICE, COUNT - i * SLICE));

describe('spec fuzzing', () => {
  const r = prng(SEED);
  const outcomes = { clean: 0, diagnosed: 0, generated: 0 };
  const codes = new Set<string>();
  let checked = 0;

  it.each(SLICES.map((count, i) => [i * SLICE, count] as const))('mutants %i.. (%i of them) are checked or diagnosed, never thrown', (first, count) => {
    const dir = tempDir();
    const file = join(dir, 'spec.yaml');
    for (let n = first; n < first + count; n++) {
      const source = r.pick(SPECS);
      const bytes = r.next() < 0.6 ? Buffer.from(mutateDocument(source, r)) : mutateBytes(source, r);
      // A new file each time: ext4 flushes a file truncated and written again when it is closed
      // (auto_da_alloc), 2–3 ms of waiting per mutant; removed first, the write is a plain create.
      rmSync(file, { force: true });
      writeFileSync(file, bytes);
      // FUZZ_TRACE=1 keeps the mutant being checked, to reproduce a hang with `mcpgen check`.
      if (process.env.FUZZ_TRACE) writeFileSync(join(ROOT, '.tmp/last-mutant.yaml'), bytes);
      const started = performance.now();
      const result = check([file], dir);
      if (process.env.FUZZ_TRACE && performance.now() - started > 300) writeFileSync(join(ROOT, `.tmp/slow-mutant-${n}.yaml`), bytes);
      for (const d of result.diagnostics) {
        codes.add(d.code);
        expect(Object.keys(CODES)).toContain(d.code);
        expect(d.file).toBe('spec.yaml');
        expect(d.line).toBeGreaterThanOrEqual(1);
        expect(d.column).toBeGreaterThanOrEqual(1);
        expect(d.message).not.toMatch(/\n\s+at /);
      }
      if (result.models.length === 0) {
        expect(result.diagnostics.some((d) => d.severity === 'error')).toBe(true);
        outcomes.diagnosed++;
      } else {
        outcomes.clean++;
        // Emitting is the expensive half: exercise it on a sample of the mutants that validate.
        if (outcomes.generated < 40) {
          const files = emitServerPackage(result.models[0]!);
          expect(files.length).toBeGreaterThan(5);
          outcomes.generated++;
        }
      }
      checked++;
    }
  }, 300_000); // ~5 ms a mutant idle, 50 ms for the slice that emits: a limit only a hang reaches

  it(`survives ${COUNT} seeded mutations of the example specs`, () => {
    expect(checked, 'every slice ran to its end').toBe(COUNT);
    expect(outcomes.clean + outcomes.diagnosed).toBe(COUNT);
    expect(outcomes.diagnosed).toBeGreaterThan(COUNT / 10);
    expect(codes.size).toBeGreaterThan(5);
  });

  it('refuses a billion-laughs document without expanding it', () => {
    const dir = tempDir();
    const levels = Array.from({ length: 12 }, (_, i) => `l${i + 1}: &l${i + 1} [${Array(10).fill(`*l${i}`).join(',')}]`);
    writeFileSync(join(dir, 'bomb.yaml'), `l0: &l0 ["lol"]\n${levels.join('\n')}\n`);
    const result = check([join(dir, 'bomb.yaml')], dir);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['MCPG007']);
  });
});
