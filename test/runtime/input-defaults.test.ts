// Which input defaults the server fills in (packages/runtime/src/shared/input-defaults.ts): given/want.
// The generator types handler inputs from the same plan, so these cases are also what the types promise.
import { describe, expect, it } from 'vitest';
import { applyDefaults, defaultsPlan } from '../../packages/runtime/src/shared/input-defaults.js';

const SCHEMA = {
  type: 'object',
  properties: {
    limit: { type: 'integer', default: 20 },
    units: { $ref: '#/$defs/Units' },
    viaTwo: { $ref: '#/$defs/Alias' },
    filter: { type: 'object', properties: { closed: { type: 'boolean', default: false } } },
    options: { type: 'object', default: {}, properties: { depth: { type: 'integer', default: 1 } } },
    tags: { type: 'array', items: { type: 'object', properties: { x: { default: 1 } } } },
    either: { anyOf: [{ type: 'object', properties: { y: { default: 2 } } }] },
    ticket: { $ref: '#/$defs/Ticket' },
  },
  $defs: {
    Units: { type: 'string', default: 'metric' },
    Alias: { $ref: '#/$defs/Units' },
    Ticket: { type: 'object', properties: { status: { default: 'open' } } },
  },
};
// A property named __proto__, an own key as JSON.parse (the wire) makes it.
const schema = JSON.parse(JSON.stringify(SCHEMA).replace('"limit":', '"__proto__":{"type":"string","default":"own"},"limit":')) as Record<string, unknown>;

describe('input defaults', () => {
  const plan = defaultsPlan(schema);

  it('fills absent properties: own defaults, through $ref chains, nested objects, a defaulted object', () => {
    const out = applyDefaults({ filter: {} }, plan) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__') && out['__proto__']).toBe('own');
    const rest = { ...out };
    delete rest['__proto__'];
    expect(rest).toEqual({ limit: 20, units: 'metric', viaTwo: 'metric', filter: { closed: false }, options: { depth: 1 } });
  });

  it('leaves given values, and what lies under items, combinators and $defs objects, alone', () => {
    const given = { limit: 5, units: 'imperial', tags: [{}], either: {}, ticket: {}, filter: { closed: true } };
    const out = applyDefaults(given, plan) as Record<string, unknown>;
    expect(out).toMatchObject(given);
    expect(out.tags).toEqual([{}]);
    expect(out.either).toEqual({});
    expect(out.ticket).toEqual({});
  });

  it('copies what it changes: the arguments as sent stay as sent, and no two calls share a default', () => {
    const sent = { filter: {} };
    const a = applyDefaults(sent, plan) as { options: { depth: number } };
    expect(sent).toEqual({ filter: {} });
    a.options.depth = 9;
    expect((applyDefaults({}, plan) as { options: { depth: number } }).options.depth).toBe(1);
    // Nothing to fill: the very same value.
    const none = { type: 'object', properties: { q: { type: 'string' } } };
    expect(defaultsPlan(none)).toBeUndefined();
  });
});
