// plain-schema.ts answers for ajv on the schemas it calls plain; these tests hold it to what ajv says, on
// every schema in the specs and fixtures and on thousands of generated ones, near and outside the subset.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAjv } from '@mcpgen/runtime/shared';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { bundleSchema, isObjectSchema, walkSchema } from '../../src/common/json-schema.js';
import { parseSource } from '../../src/parse/source.js';
import { metaSchema2020 } from '../../src/validate/precompiled-meta-schema.js';
import { knownFormats } from '../../src/validate/precompiled-validators.js';
import { isPlainSchema, plainlyValid } from '../../src/validate/rules/plain-schema.js';
import { STRICT_AJV_OPTIONS } from '../../src/validate/rules/json-schema.js';
import type { JsonObjectSchema, JsonSchema } from '../../src/validate/spec-types.js';
import { ROOT } from '../support/root.js';
import { yamlFiles } from '../support/yaml-files.js';
import { prng } from '../support/prng.js';

const FORMATS: ReadonlySet<string> = new Set(knownFormats as string[]);
const meta = metaSchema2020 as unknown as ValidateFunction;

/**
 * What the strict compile of validate/rules/json-schema.ts finds: thrown errors and logged strict-mode findings.
 * One strict ajv for every schema, as json-schema.ts keeps one: each schema is removed after its compile, and an
 * `x-` keyword stays registered, as it does there (a fresh ajv per schema was most of this file's CPU).
 */
let findings: string[] = [];
const log = (...m: unknown[]) => void findings.push(m.map(String).join(' '));
const strictAjv = createAjv({ ...STRICT_AJV_OPTIONS, validateSchema: false, logger: { log: () => undefined, warn: log, error: log } });
function ajvFindings(schema: JsonObjectSchema): string[] {
  findings = [];
  try {
    walkSchema(schema, ({ schema: node }) => {
      if (isObjectSchema(node)) for (const k of Object.keys(node)) if (k.startsWith('x-') && !strictAjv.getKeyword(k)) strictAjv.addKeyword({ keyword: k });
    });
    strictAjv.compile(schema);
  } catch (e) {
    findings.push(String(e));
  } finally {
    strictAjv.removeSchema(schema);
  }
  return findings;
}

/** Holds isPlainSchema to ajv on each schema: plain ones must compile without a finding. Counts both sides. */
function compareWithAjv(schemas: Iterable<JsonObjectSchema>): { plain: number; refused: number } {
  let plain = 0;
  let refused = 0;
  // Plain schemas ajv found something in, with what it found: compared once (a message per schema cost more than the check).
  const wrong: { schema: JsonObjectSchema; findings: string[] }[] = [];
  for (const schema of schemas) {
    if (meta(schema) !== true) continue; // checkSchema reports these before any compile
    const findings = ajvFindings(schema);
    if (isPlainSchema(schema, FORMATS)) {
      plain++;
      if (findings.length > 0) wrong.push({ schema, findings });
    } else if (findings.length > 0) refused++;
  }
  expect(wrong).toEqual([]);
  return { plain, refused };
}

const lenient = createAjv({ strict: false, allErrors: false, validateSchema: false });
function ajvAccepts(schema: JsonObjectSchema, value: unknown): boolean | undefined {
  try {
    return lenient.compile(schema)(value) === true;
  } catch {
    return undefined; // does not compile: json-schema.ts reports nothing then
  } finally {
    lenient.removeSchema(schema);
  }
}



const TYPES = ['string', 'integer', 'number', 'boolean', 'null', 'array', 'object'];
const KEYWORD_VALUES: Record<string, (r: () => number) => unknown> = {
  minimum: (r) => Math.floor(r() * 10) - 2, maximum: (r) => Math.floor(r() * 100), exclusiveMinimum: () => 0, exclusiveMaximum: () => 50, multipleOf: () => 2,
  minLength: (r) => Math.floor(r() * 3), maxLength: (r) => 5 + Math.floor(r() * 5), pattern: (r) => (r() < 0.5 ? '^[a-z]+$' : '\\d'),
  format: (r) => pick(r, ['date-time', 'email', 'uuid', 'int32', 'uri']), minItems: () => 1, maxItems: () => 4, uniqueItems: () => true,
  minProperties: () => 1, maxProperties: () => 9, enum: (r) => (r() < 0.1 ? [] : [1, 'a', null, 2.5].slice(0, 1 + Math.floor(r() * 4))), const: (r) => pick(r, [1, 'a', null, true, [1]]),
  default: (r) => pick(r, [0, 3, 'abc', '', null, true, 1.5, [1, 2], { a: 1 }]), title: () => 'T', 'x-mcp-header': () => 'Region', 'x-odd.name': () => 1,
  contains: () => ({ type: 'string' }), nullable: () => true, minContains: () => 1,
};
const pick = <T,>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

function schemaOf(r: () => number, depth: number, defs: readonly string[]): JsonObjectSchema {
  if (defs.length > 0 && r() < 0.15) return r() < 0.9 ? { $ref: `#/$defs/${pick(r, defs)}`, ...(r() < 0.3 ? { description: 'd' } : {}) } : { $ref: '#/$defs/Missing' };
  const node: Record<string, unknown> = {};
  const roll = r();
  if (roll < 0.7) node.type = pick(r, TYPES);
  else if (roll < 0.85) node.type = [pick(r, TYPES), 'null'];
  const keys = Object.keys(KEYWORD_VALUES);
  for (let i = Math.floor(r() * 4); i > 0; i--) {
    const k = pick(r, keys);
    node[k] = KEYWORD_VALUES[k]!(r);
  }
  const t = [node.type].flat();
  if (depth < 3 && (t.includes('object') || r() < 0.05)) {
    const props: Record<string, JsonSchema> = {};
    for (let i = Math.floor(r() * 4); i > 0; i--) props[`p${i}`] = schemaOf(r, depth + 1, defs);
    node.properties = props;
    if (r() < 0.5) node.required = Object.keys(props).slice(0, 1);
    if (r() < 0.4) node.additionalProperties = r() < 0.5 ? false : schemaOf(r, depth + 1, defs);
  }
  if (depth < 3 && (t.includes('array') || r() < 0.05)) node.items = r() < 0.1 ? true : schemaOf(r, depth + 1, defs);
  if (r() < 0.05) node.anyOf = [{ type: 'string' }, { type: 'integer' }];
  // Members start from their parent's types (ajv's strictTypes context): typed or not, in or out of it.
  else if (depth < 3 && r() < 0.2) node[pick(r, ['anyOf', 'oneOf', 'allOf'])] = Array.from({ length: 1 + Math.floor(r() * 3) }, () => (r() < 0.1 ? true : schemaOf(r, depth + 1, defs)));
  return node;
}

describe('plain schemas: what plain-schema.ts says without ajv is what ajv says', () => {
  it('a schema called plain compiles in strict ajv without a finding (specs, fixtures, 4,000 generated)', () => {
    const schemas: JsonObjectSchema[] = [];
    for (const file of [...yamlFiles(join(ROOT, 'specs')), ...yamlFiles(join(ROOT, 'test/fixtures'))]) {
      const value = parseSource(file, readFileSync(file)).source?.value as Record<string, unknown> | undefined;
      if (!isObjectSchema(value)) continue;
      const defs = new Map(Object.entries(isObjectSchema(value.$defs) ? (value.$defs as Record<string, JsonSchema>) : {}));
      for (const tool of Array.isArray(value.tools) ? value.tools : []) {
        for (const s of [tool?.input, tool?.output]) if (isObjectSchema(s)) schemas.push(bundleSchema(s as JsonObjectSchema, defs));
      }
      for (const d of defs.values()) if (isObjectSchema(d)) schemas.push(d);
    }
    const fromFiles = schemas.length;
    const r = prng(17).next;
    for (let i = 0; i < 4000; i++) {
      const $defs: Record<string, JsonSchema> = {};
      if (r() < 0.5) for (const name of ['A', 'B']) $defs[name] = schemaOf(r, 2, []);
      const root = schemaOf(r, 0, Object.keys($defs));
      schemas.push(Object.keys($defs).length > 0 ? { ...root, $defs } : root);
    }
    const { plain, refused } = compareWithAjv(schemas);
    // Both sides must be exercised, or the comparison proves nothing.
    expect(fromFiles).toBeGreaterThan(50);
    expect(plain).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(200);
  });

  it('anyOf/oneOf/allOf members are judged in the types of their parent, as the strictTypes of ajv does (3,000 generated)', () => {
    const r = prng(41).next;
    const member = (depth: number): JsonSchema => {
      if (r() < 0.08) return true;
      const m: Record<string, unknown> = {};
      if (r() < 0.5) m.type = pick(r, TYPES);
      for (let i = Math.floor(r() * 3); i > 0; i--) {
        const k = pick(r, ['minimum', 'multipleOf', 'minLength', 'pattern', 'format', 'minItems', 'maxProperties', 'required', 'enum', 'description']);
        m[k] = k === 'required' ? ['a'] : k === 'description' ? 'd' : KEYWORD_VALUES[k]!(r);
      }
      if (depth < 2 && r() < 0.2) m[pick(r, ['anyOf', 'oneOf', 'allOf'])] = Array.from({ length: 1 + Math.floor(r() * 2) }, () => member(depth + 1));
      return m;
    };
    const schemas = Array.from({ length: 3000 }, () => {
      const schema: Record<string, unknown> = {};
      const roll = r();
      if (roll < 0.45) schema.type = pick(r, TYPES);
      else if (roll < 0.65) schema.type = [...new Set([pick(r, TYPES), pick(r, TYPES)])];
      schema[pick(r, ['anyOf', 'oneOf', 'allOf'])] = Array.from({ length: 1 + Math.floor(r() * 3) }, () => member(0));
      return schema;
    });
    const { plain, refused } = compareWithAjv(schemas);
    expect(plain).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(300);
  });

  it('a value called plainly valid is one ajv accepts (5,000 generated leaf schemas and values)', () => {
    const r = prng(29).next;
    const values = [0, 1, -1, 3, 10, 2.5, 1e21, Infinity, NaN, '', 'a', 'abc', '😀😀', 'x'.repeat(12), true, false, null, [], [1, 2], { a: 1 }];
    let valid = 0;
    let invalid = 0;
    // Plainly valid values ajv refused, compared once at the end.
    const wrong: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const schema = schemaOf(r, 3, []);
      const value = pick(r, values);
      const accepted = ajvAccepts(schema, value);
      if (plainlyValid(schema, value)) {
        valid++;
        if (accepted === false) wrong.push(`${JSON.stringify(schema)} ← ${String(value)}`);
      } else if (accepted === false) invalid++;
    }
    expect(wrong).toEqual([]);
    expect(valid).toBeGreaterThan(500);
    expect(invalid).toBeGreaterThan(500);
  });
});
