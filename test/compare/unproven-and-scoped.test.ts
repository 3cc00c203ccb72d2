// Issue 45 #7 and #8: a change that cannot be proven either way (one pattern or format replaced by another)
// is "unproven" in a category of its own that fails only when failOn names it; a resource URI change is one
// finding; `breaking.ignore` can be scoped to some items with `only` (buf's ignore_only).
import { describe, expect, it } from 'vitest';
import { compareYaml, expectVerdict, toolSpec, type VerdictCase } from './support.js';

const s = (schema: unknown) => toolSpec({ type: 'object', properties: { c: schema } });
const head = 'mcpgen: 1\nserver: { name: s, version: 1.0.0 }\n';
const two = (a: string, b: string) => `${head}tools:\n  - { name: a, description: A, input: ${a} }\n  - { name: b, description: B, input: ${b} }\n`;
const openIn = (...names: string[]) => `{ type: object, properties: { ${names.map((n) => `${n}: { type: string }`).join(', ')} } }`;

// [case, old, new, rule ids, failing]
const CASES: VerdictCase[] = [
  ['a pattern loosened (^[A-Z]{3}$ → ^[A-Z]{2,4}$)', s({ type: 'string', pattern: '^[A-Z]{3}$' }), s({ type: 'string', pattern: '^[A-Z]{2,4}$' }), ['INPUT_PATTERN_REPLACED'], 0],
  ['a pattern replaced by a narrower one: not proven either', s({ type: 'string', pattern: '^[A-Z]{2,4}$' }), s({ type: 'string', pattern: '^[A-Z]{3}$' }), ['INPUT_PATTERN_REPLACED'], 0],
  ['a pattern where there was none narrows', s({ type: 'string' }), s({ type: 'string', pattern: '^a' }), ['INPUT_PATTERN_CHANGED'], 1],
  ['a format replaced by another', s({ type: 'string', format: 'email' }), s({ type: 'string', format: 'idn-email' }), ['INPUT_FORMAT_REPLACED'], 0],
  ['an output pattern replaced', toolSpec({ type: 'object' }, { type: 'object', properties: { c: { type: 'string', pattern: '^a' } } }), toolSpec({ type: 'object' }, { type: 'object', properties: { c: { type: 'string', pattern: '^b' } } }), ['OUTPUT_PATTERN_REPLACED'], 0],
  ['a resource URI changed', `${head}resources:\n  - { uri: 'file:///a', name: readme }\n`, `${head}resources:\n  - { uri: 'file:///docs/a', name: readme }\n`, ['RESOURCE_URI_CHANGED'], 1],
  ['a resource replaced by another of another name', `${head}resources:\n  - { uri: 'file:///a', name: readme }\n`, `${head}resources:\n  - { uri: 'file:///b', name: other }\n`, ['RESOURCE_ADDED', 'RESOURCE_REMOVED'], 1],
];

describe('unproven changes and resource URIs', () => {
  it.each(CASES)('%s', (_name, before, after, rules, failing) => expectVerdict(before, after, rules, failing));

  it('unproven changes fail when failOn names unprovable', () => {
    const c = compareYaml(CASES[0]![1], CASES[0]![2], { failOn: ['callers', 'unprovable'] });
    expect(c.failing.map((f) => f.rule.id)).toEqual(['INPUT_PATTERN_REPLACED']);
    expect(c.findings[0]!.message).toContain('(was "^[A-Z]{3}$")');
  });
});

describe('breaking.ignore scoped with only', () => {
  const before = two(openIn('x', 'y'), openIn('x', 'y'));
  const after = two(openIn('x'), openIn('x'));
  it.each([
    ['no only: the rule is silenced everywhere', undefined, 0, 2],
    ['only the tool acknowledged', ['a'], 1, 1],
    ['only another tool', ['z'], 2, 0],
    ['only the server', ['s'], 0, 2],
  ] as const)('%s', (_name, only, failing, ignored) => {
    const c = compareYaml(before, after, { ignore: [{ rule: 'INPUT_PROPERTY_REMOVED', reason: 'x', ...(only ? { only } : {}) }] });
    expect([c.failing.length, c.ignored]).toEqual([failing, ignored]);
    if (failing === 1) expect(c.failing[0]!.message).toContain('tool "b"');
  });
});
