// Provider-safe tool definitions in the OpenAI bridge (issue 29, item 3 of the issue / item 2 of the brief):
// names mapped to ≤ 64 characters of [A-Za-z0-9_-] (stable, collision-free, mapped back on dispatch) and
// the strict-mode schema transform with its way back, over every tool of the checked-in example specs.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { dispatchToolCalls, fromStrictArguments, providerNames, toOpenAiTools, toStrictSchema } from '@mcpgen/runtime-client';
import { definition as dashboard } from '../../generated/dashboard/definition.js';
import { definition as everything } from '../../generated/everything/definition.js';
import { definition as files } from '../../generated/files/definition.js';
import { definition as inventory } from '../../generated/inventory/definition.js';
import { definition as jobs } from '../../generated/jobs/definition.js';
import { definition as secure } from '../../generated/secure-notes/definition.js';
import { definition as sql } from '../../generated/sql/definition.js';
import { definition as weather } from '../../generated/weather/definition.js';

const SPECS = { dashboard, everything, files, inventory, jobs, secure, sql, weather };
const SAFE = /^[A-Za-z0-9_-]{1,64}$/;

describe('provider names', () => {
  const names = ['get_user', 'files.read', 'files_read', 'a'.repeat(128), `${'a'.repeat(127)}b`, 'x.y-z', 'ok-name'];
  it('keeps safe names, maps the rest to ≤ 64 chars of [A-Za-z0-9_-], collision-free', () => {
    const { toProvider, fromProvider } = providerNames(names);
    expect(toProvider.get('get_user')).toBe('get_user');
    expect(toProvider.get('files_read')).toBe('files_read');
    // `files.read` cleans to the taken `files_read`: it gets the hashed form instead.
    expect(toProvider.get('files.read')).toMatch(/^files_read_[0-9a-f]{8}$/);
    expect(toProvider.get('x.y-z')).toBe('x_y-z');
    for (const n of names) expect(toProvider.get(n)).toMatch(SAFE);
    expect(new Set(toProvider.values()).size).toBe(names.length);
    for (const n of names) expect(fromProvider.get(toProvider.get(n)!)).toBe(n);
  });
  it('is stable: the same names in any order give the same mapping', () => {
    const a = providerNames(names).toProvider;
    const b = providerNames([...names].reverse()).toProvider;
    expect([...b].sort()).toEqual([...a].sort());
  });
  it('dispatch maps provider names back to the MCP tool', async () => {
    const tools = names.map((name) => ({ name, inputSchema: { type: 'object' as const } }));
    const declared = toOpenAiTools(tools);
    const callers = Object.fromEntries(names.map((n) => [n, async () => ({ isError: false, content: [{ type: 'text', text: `ran ${n}` }] })]));
    const calls = declared.map((t, i) => ({ id: String(i), function: { name: t.function.name, arguments: '{}' } }));
    const answers = await dispatchToolCalls(callers, calls);
    expect(answers.map((a) => a.content)).toEqual(names.map((n) => `ran ${n}`));
  });
});

describe('strict mode over the example specs', () => {
  const tools = Object.entries(SPECS).flatMap(([spec, def]) => def.tools.map((t) => ({ spec, tool: t.definition })));
  it('gives every tool a strict form or a reason, and every strict form follows strict mode rules', () => {
    const report: string[] = [];
    let strict = 0;
    for (const { spec, tool } of tools) {
      const s = toStrictSchema(tool.inputSchema);
      if (!s.strict) {
        report.push(`${spec}/${tool.name}: ${s.notes.filter((n) => n.kind === 'cannot').map((n) => `${n.path || '/'} ${n.message}`).join('; ')}`);
        continue;
      }
      strict++;
      closedEverywhere(s.schema);
    }
    // Numbers for the report: how many of the example tools have a strict form.
    expect(strict + report.length).toBe(tools.length);
    expect(strict).toBeGreaterThan(0);
    console.log(`strict: ${strict}/${tools.length}\n${report.join('\n')}`);
  });

  it('round-trips: a strict call (nulls for optional) maps back to exactly the non-strict call', () => {
    const ajv = new Ajv2020({ strict: false });
    let checked = 0;
    for (const { tool } of tools) {
      const s = toStrictSchema(tool.inputSchema);
      if (!s.strict) continue;
      const plain = sample(tool.inputSchema, tool.inputSchema, false);
      const strictArgs = sample(tool.inputSchema, tool.inputSchema, true);
      // The sampler is simple (no patterns): tools it cannot fill validly are left to the other tests.
      if (!ajv.validate(tool.inputSchema, plain)) continue;
      if (!ajv.validate(s.schema, strictArgs)) throw new Error(`${tool.name}: ${JSON.stringify(strictArgs)} does not fit the strict schema: ${ajv.errorsText()}`);
      expect(fromStrictArguments(tool.inputSchema, strictArgs), tool.name).toEqual(plain);
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('reports what cannot be strict: a map (open keys) and a non-object root', () => {
    const map = toStrictSchema({ type: 'object', properties: { tags: { type: 'object', additionalProperties: { type: 'string' } } } });
    expect(map.strict).toBe(false);
    expect(map.notes).toContainEqual(expect.objectContaining({ path: '/properties/tags', kind: 'cannot' }));
    const dropped = toStrictSchema({ type: 'object', properties: { n: { type: 'integer', default: 3, not: { const: 4 } } }, required: [] });
    expect(dropped.strict).toBe(true);
    expect(dropped.schema).toEqual({ type: 'object', properties: { n: { type: ['integer', 'null'] } }, required: ['n'], additionalProperties: false });
    expect(dropped.notes.map((n) => [n.path, n.kind])).toEqual([['', 'closed'], ['/properties/n/default', 'dropped'], ['/properties/n/not', 'dropped'], ['/properties/n', 'nullable']]);
    expect(toOpenAiTools([{ name: 't', inputSchema: { type: 'object', properties: { m: { type: 'object', additionalProperties: true } } } }], { strict: true })[0]!.function.strict).toBe(false);
  });
});

/** Strict mode's object rule, everywhere: closed, every property required. */
function closedEverywhere(s: unknown): void {
  if (Array.isArray(s)) return s.forEach(closedEverywhere);
  if (typeof s !== 'object' || s === null) return;
  const o = s as Record<string, unknown>;
  if (o.properties !== undefined) {
    expect(o.additionalProperties).toBe(false);
    expect(o.required).toEqual(Object.keys(o.properties as object));
  }
  Object.values(o).forEach(closedEverywhere);
}

/** Minimal arguments: required properties filled, optional ones absent (or null under strict). */
function sample(s: Record<string, unknown>, root: Record<string, unknown>, strict: boolean, depth = 0): unknown {
  if (typeof s.$ref === 'string' && depth < 8) return sample(s.$ref.slice(2).split('/').reduce<any>((n, k) => n?.[k], root), root, strict, depth + 1);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) return sample(((s.anyOf ?? s.oneOf) as Record<string, unknown>[])[0]!, root, strict, depth + 1);
  if (type === 'object' || s.properties !== undefined) {
    const required = new Set((s.required as string[] | undefined) ?? []);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, Record<string, unknown>>)) {
      if (required.has(k)) out[k] = sample(v, root, strict, depth + 1);
      else if (strict) out[k] = null;
    }
    return out;
  }
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return typeof s.minimum === 'number' ? s.minimum : 1;
  if (type === 'boolean') return true;
  if (typeof s.format === 'string') return ({ 'date-time': '2026-01-01T00:00:00Z', date: '2026-01-01', email: 'a@example.com', uri: 'https://example.com', uuid: '00000000-0000-4000-8000-000000000000' } as Record<string, string>)[s.format] ?? 'x';
  return typeof s.minLength === 'number' ? 'x'.repeat(s.minLength) : 'x';
}
