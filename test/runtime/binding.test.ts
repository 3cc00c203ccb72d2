// What a requestState is bound to (request-state.ts bindingOf): the canonical JSON of the arguments,
// built without per-call arrays since it runs on every tools/call, must stay what it was (states sealed
// by a running instance are opened by another, or after an upgrade) and ignore key order.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bindingOf, lazyBindingOf } from '../../packages/runtime/src/server/scale/request-state.js';

/** The straightforward form: sorted keys, map and join. */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (typeof value === 'object' && value !== null) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${reference((value as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${(i * 7919) % 100}${i % 3 ? 'é' : 'Z'}`, i]));
const sixteen = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [String.fromCharCode(120 - i * 3) + i, i]));
const VALUES: unknown[] = [{}, { b: 1, a: [1, { d: 2, c: undefined }], é: null, Z: 'x' }, [], [undefined, 'x'], { a: { b: { c: [1, 2, { z: 1, y: 2 }] } } }, 's', 1, null, undefined, { 10: 1, 9: 2, a: 3 }, { x: [[], [[]]], '': 0 }, many, sixteen, { '😀': 1, '\uffff': 2, a: 3, A: 4 }];

describe('bindingOf', () => {
  it.each(VALUES.map((v, i) => [i, v] as const))('value %i binds as the reference form does', (_, value) => {
    const expected = createHash('sha256').update(`tools/call\0t\0who\0${reference(value ?? {})}`).digest('base64url');
    expect(bindingOf('tools/call', 't', value, 'who')).toBe(expected);
    expect(lazyBindingOf('tools/call', 't', value, 'who')()).toBe(expected);
  });

  it('ignores key order, for few and many keys', () => {
    for (const value of [{ b: 1, a: 2, c: { y: 1, x: 2 } }, many, sixteen]) {
      const reversed = Object.fromEntries(Object.entries(value).reverse());
      expect(bindingOf('m', 't', reversed)).toBe(bindingOf('m', 't', value));
    }
  });

  it('reads the arguments when made, not when hashed (a handler may change them)', () => {
    const args: Record<string, unknown> = { a: 1 };
    const lazy = lazyBindingOf('m', 't', args);
    args.a = 2;
    expect(lazy()).toBe(bindingOf('m', 't', { a: 1 }));
  });
});
