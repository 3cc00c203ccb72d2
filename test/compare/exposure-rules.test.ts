// Issue 45 #2 and #6: what deployments expose is part of the contract — toolsets removed, renamed, added;
// members a deployment (default, --toolsets NAME, --read-only) exposed before and hides now.
import { describe, expect, it } from 'vitest';
import { compareYaml, expectVerdict, type VerdictCase } from './support.js';

const spec = (tools: string, toolsets = '') => `mcpgen: 1\nserver: { name: s, version: 1.0.0 }\ntools:\n${tools}${toolsets ? `toolsets:\n${toolsets}` : ''}`;
const t = (...names: string[]) => names.map((n) => `  - { name: ${n}, description: ${n} }\n`).join('');
const sets = (...lines: string[]) => lines.map((l) => `  ${l}\n`).join('');

// [case, old, new, rule ids (sorted), failing]
const CASES: VerdictCase[] = [
  ['a tool moved from the default toolset to a non-default one', spec(t('x', 'y'), sets('a: { default: true, tools: [x, y] }', 'b: { tools: [y] }')), spec(t('x', 'y'), sets('a: { default: true, tools: [y] }', 'b: { tools: [x, y] }')), ['TOOLSET_MEMBER_HIDDEN'], 1],
  ['an always-exposed tool put into a toolset', spec(t('x', 'z'), sets('a: { default: true, tools: [z] }', 'b: { tools: [z] }')), spec(t('x', 'z'), sets('a: { default: true, tools: [z, x] }', 'b: { tools: [z] }')), ['TOOLSET_MEMBER_HIDDEN'], 1],
  ['a toolset renamed', spec(t('x'), sets('old: { tools: [x] }')), spec(t('x'), sets('fresh: { tools: [x] }')), ['TOOLSET_RENAMED'], 1],
  ['a toolset removed, its tool moved to another default one', spec(t('x', 'y'), sets('a: { tools: [x] }', 'b: { tools: [y] }')), spec(t('x', 'y'), sets('a: { tools: [x, y] }')), ['TOOLSET_REMOVED'], 1],
  ['a toolset stops being a default one', spec(t('x', 'y'), sets('a: { default: true, tools: [x] }', 'b: { default: true, tools: [y] }')), spec(t('x', 'y'), sets('a: { default: true, tools: [x] }', 'b: { tools: [y] }')), ['TOOLSET_MEMBER_HIDDEN'], 1],
  ['a new toolset with a new tool', spec(t('x'), sets('a: { tools: [x] }')), spec(t('x', 'n'), sets('a: { tools: [x] }', 'c: { tools: [n] }')), ['TOOLSET_ADDED', 'TOOL_ADDED'], 0],
  ['the only toolset takes an always-exposed tool: exposed as before', spec(t('x', 'y'), sets('a: { tools: [y] }')), spec(t('x', 'y'), sets('a: { tools: [x, y] }')), [], 0],
  ['toolsets reordered', spec(t('x', 'y'), sets('a: { tools: [x] }', 'b: { tools: [y] }')), spec(t('x', 'y'), sets('b: { tools: [y] }', 'a: { tools: [x] }')), [], 0],
  ['with discovery the default deployment offers every toolset: only --toolsets a loses x', spec(t('x', 'y'), sets('a: { default: true, tools: [x] }', 'b: { tools: [y] }') + 'discovery: {}\n'), spec(t('x', 'y'), sets('a: { default: true, tools: [] }', 'b: { tools: [x, y] }') + 'discovery: {}\n'), ['TOOLSET_MEMBER_HIDDEN'], 1],
  ['readOnlyHint true → false', spec('  - { name: x, annotations: { readOnlyHint: true } }\n'), spec('  - { name: x, annotations: { readOnlyHint: false } }\n'), ['ANNOTATION_CHANGED', 'READ_ONLY_TOOL_HIDDEN'], 1],
  ['readOnlyHint false → true', spec('  - { name: x, annotations: { readOnlyHint: false } }\n'), spec('  - { name: x, annotations: { readOnlyHint: true } }\n'), ['ANNOTATION_CHANGED'], 0],
];

describe('exposure rules', () => {
  it.each(CASES)('%s', (_name, before, after, rules, failing) => expectVerdict(before, after, rules, failing));

  it('the hidden member names the deployments that lose it, at its position', () => {
    const c = compareYaml(CASES[0]![1], CASES[0]![2]);
    expect(c.findings[0]).toMatchObject({ message: 'tool "x" is no longer exposed by default deployments (no --toolsets), --toolsets a', new: { line: 4 } });
    const renamed = compareYaml(CASES[2]![1], CASES[2]![2]).findings[0]!;
    expect(renamed).toMatchObject({ old: { path: 'toolsets.old' }, new: { path: 'toolsets.fresh' } });
  });
});

it('with discovery, the member is lost only by the deployment naming its old toolset', () => {
  const c = compareYaml(spec(t('x', 'y'), sets('a: { default: true, tools: [x] }', 'b: { tools: [y] }') + 'discovery: {}\n'), spec(t('x', 'y'), sets('a: { default: true, tools: [] }', 'b: { tools: [x, y] }') + 'discovery: {}\n'));
  expect(c.findings[0]!.message).toBe('tool "x" is no longer exposed by --toolsets a');
});
