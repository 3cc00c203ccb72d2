// Property test of the schema subset engine against an oracle: for random schema edits, "input breaking"
// (old ⊄ new) must agree with "some instance generated from the old schema is invalid under the new one"
// (checked with ajv, not with the engine's own value check), and "output breaking" (new ⊄ old) likewise
// with instances generated from the new schema. BREAKING_EDITS raises the count (npm run fuzz: 5000).
// Instances carry undeclared properties only under a name no schema declares (the engine's documented
// assumption: a property an open object does not declare is outside the contract).
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { subsetViolations } from '../../src/compare/index.js';

const EDITS = Number(process.env.BREAKING_EDITS ?? 300);
type S = Record<string, unknown>;

function rng(seed: number) {
  let s = seed >>> 0;
  const next = () => ((s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0) / 2 ** 32);
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]! };
}
type R = ReturnType<typeof rng>;

const NAMES = ['a', 'b', 'c'];
const EXTRA = 'zz_extra';

function leaf(r: R): S {
  switch (r.int(6)) {
    case 0: return { type: 'integer', ...(r.int(2) ? { minimum: r.int(5) - 2 } : {}), ...(r.int(2) ? { maximum: r.int(5) + 3 } : {}) };
    case 1: return { type: 'string', ...(r.int(2) ? { minLength: r.int(3) } : {}), ...(r.int(2) ? { maxLength: 3 + r.int(3) } : {}) };
    case 2: return { enum: ['x', 'y', 'z'].slice(0, 1 + r.int(3)) };
    case 3: return { type: r.pick([['string', 'null'], ['integer', 'string'], 'boolean', 'number']) };
    case 4: return { type: 'array', items: r.int(2) ? { type: 'integer' } : { type: 'string' }, ...(r.int(2) ? { maxItems: 2 + r.int(2) } : {}), ...(r.int(2) ? { minItems: r.int(2) } : {}) };
    default: return { type: 'number', ...(r.int(2) ? { minimum: r.int(3) } : {}) };
  }
}

function object(r: R, depth: number): S {
  const properties: S = {};
  for (const n of NAMES) if (r.int(3) > 0) properties[n] = depth < 1 && r.int(4) === 0 ? object(r, depth + 1) : leaf(r);
  const keys = Object.keys(properties);
  return { type: 'object', properties, required: keys.filter(() => r.int(3) === 0), ...(r.int(3) === 0 ? { additionalProperties: false } : {}) };
}

/** One random edit somewhere in the tree (a copy). */
function edit(r: R, root: S): S {
  const s = structuredClone(root);
  const objects: S[] = [];
  const walk = (o: S) => { objects.push(o); for (const v of Object.values((o.properties ?? {}) as S)) if ((v as S).type === 'object') walk(v as S); };
  walk(s);
  const o = r.pick(objects);
  const props = o.properties as S;
  const names = Object.keys(props);
  const name = names.length ? r.pick(names) : undefined;
  const req = o.required as string[];
  switch (r.int(9)) {
    case 0: if (name) o.required = req.includes(name) ? req.filter((x) => x !== name) : [...req, name]; break;
    case 1: if (name) { delete props[name]; o.required = req.filter((x) => x !== name); } break;
    case 2: { const n = NAMES.find((x) => !(x in props)); if (n) props[n] = leaf(r); break; }
    case 3: if ('additionalProperties' in o) delete o.additionalProperties; else o.additionalProperties = false; break;
    case 4: if (name) props[name] = leaf(r); break;
    default: if (name) props[name] = tweak(r, props[name] as S);
  }
  return s;
}

/** Change one keyword of a leaf: a bound moved or dropped, an enum value added or removed, a type widened or narrowed. */
function tweak(r: R, leafSchema: S): S {
  const x = { ...leafSchema };
  const numeric = ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems'].filter((k) => k in x || r.int(2) === 0);
  const k = r.pick(['bound', 'enum', 'type']);
  if (k === 'enum' && Array.isArray(x.enum)) x.enum = r.int(2) || x.enum.length < 2 ? [...x.enum, 'w'] : x.enum.slice(1);
  else if (k === 'type' && typeof x.type === 'string') x.type = r.int(2) ? [x.type, 'null'] : x.type === 'number' ? 'integer' : x.type;
  else if (k === 'type' && Array.isArray(x.type)) x.type = x.type[0];
  else if (numeric.length) {
    const key = r.pick(numeric);
    const isCount = key !== 'minimum' && key !== 'maximum';
    if (x.type === undefined || (isCount && (x.type === 'integer' || x.type === 'number')) || (!isCount && x.type !== 'integer' && x.type !== 'number')) return x;
    if (key in x && r.int(3) === 0) delete x[key];
    else x[key] = Math.max(isCount ? 0 : -5, ((x[key] as number | undefined) ?? 2) + r.pick([-1, 1, 2]));
  }
  return x;
}

/** Instances of a schema: a base value and variants changing one place at a time (boundaries, every enum value, absence). */
function instances(s: S): unknown[] {
  if (Array.isArray(s.enum)) return [...s.enum];
  const types = s.type === undefined ? ['string', 'integer', 'null'] : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
  return types.flatMap((t) => ofType(s, t));
}

function ofType(s: S, t: string): unknown[] {
  const lo = (s.minimum as number | undefined) ?? -1000;
  const hi = (s.maximum as number | undefined) ?? 1000;
  switch (t) {
    case 'null': return [null];
    case 'boolean': return [true, false];
    case 'integer': return [lo, hi, lo + 1, hi - 1, 0].filter((v) => v >= lo && v <= hi);
    case 'number': return [lo, hi, lo + 0.5, hi - 0.5, 0.5].filter((v) => v >= lo && v <= hi);
    case 'string': { const a = (s.minLength as number | undefined) ?? 0; const b = (s.maxLength as number | undefined) ?? 30; return [a, b, a + 1].filter((n) => n <= b).map((n) => 'q'.repeat(n)); }
    case 'array': {
      const a = (s.minItems as number | undefined) ?? 0;
      const b = (s.maxItems as number | undefined) ?? 12;
      const items = instances((s.items ?? {}) as S);
      return [a, b, a + 1].filter((n) => n <= b).flatMap((n) => (n === 0 ? [[]] : items.map((v) => Array(n).fill(v))));
    }
    case 'object': return objects(s);
    default: return [];
  }
}

function objects(s: S): unknown[] {
  const props = (s.properties ?? {}) as S;
  const req = (s.required ?? []) as string[];
  const base: S = {};
  for (const [k, v] of Object.entries(props)) { const i = instances(v as S); if (i.length) base[k] = i[0]; }
  const out: S[] = [base];
  for (const [k, v] of Object.entries(props)) {
    for (const i of instances(v as S)) out.push({ ...base, [k]: i });
    if (!req.includes(k)) { const { [k]: _, ...rest } = base; out.push(rest); }
  }
  if (s.additionalProperties !== false) for (const e of ['q', 1, null]) out.push({ ...base, [EXTRA]: e });
  return out;
}

describe('breaking verdicts against the value oracle', () => {
  it(`agrees on ${EDITS} random schema edits (input and output)`, () => {
    const ajv = new Ajv2020({ strict: false, allErrors: false });
    const r = rng(32);
    const disagreements: unknown[] = [];
    let breakingSeen = 0;
    for (let i = 0; i < EDITS; i++) {
      const before = object(r, 0);
      let after = edit(r, before);
      if (r.int(3) === 0) after = edit(r, after);
      const oldOk = ajv.compile(before);
      const newOk = ajv.compile(after);
      // Input: breaking iff an instance of the old schema fails the new one.
      const inputWitness = instances(before).filter((v) => oldOk(v)).find((v) => !newOk(v));
      const inputVerdict = subsetViolations(before, after).length > 0;
      if (inputVerdict !== (inputWitness !== undefined)) disagreements.push({ dir: 'input', before, after, inputWitness, v: subsetViolations(before, after) });
      // Output: breaking iff an instance of the new schema fails the old one.
      const outputWitness = instances(after).filter((v) => newOk(v)).find((v) => !oldOk(v));
      const outputVerdict = subsetViolations(after, before).length > 0;
      if (outputVerdict !== (outputWitness !== undefined)) disagreements.push({ dir: 'output', before, after, outputWitness, v: subsetViolations(after, before) });
      if (inputVerdict) breakingSeen++;
    }
    expect(disagreements.slice(0, 3)).toEqual([]);
    expect(breakingSeen).toBeGreaterThan(EDITS / 10);
    console.log(`breaking oracle: ${EDITS} edits, ${breakingSeen} input-breaking, ${disagreements.length} disagreements`);
  }, 1_800_000);
});
