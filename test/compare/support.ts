// Build both versions of a spec through the real pipeline (load → validate → model) and compare them.
import { expect } from 'vitest';
import { compareSides, type Side } from '../../src/compare/index.js';
import type { CheckResult } from '../../src/pipeline.js';
import { checkText } from '../helpers.js';

export function sidesOf(result: CheckResult): Side[] {
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result.models.map((model) => ({ model, locate: result.locators.get(model)! }));
}

export function compareYaml(oldText: string, newText: string, options: Parameters<typeof compareSides>[2] = {}) {
  return compareSides(sidesOf(checkText(oldText)), sidesOf(checkText(newText)), options);
}

/** A spec with one tool whose input (and output, when given) are these schemas, written as JSON (valid YAML). */
export function toolSpec(input: unknown, output?: unknown, extra = ''): string {
  return [
    'mcpgen: 1',
    'server: { name: s, version: 1.0.0 }',
    'tools:',
    '  - name: t',
    `    input: ${JSON.stringify(input)}`,
    ...(output === undefined ? [] : [`    output: ${JSON.stringify(output)}`]),
    extra,
  ].join('\n');
}

/** [case, old spec, new spec, rule ids reported (sorted), how many fail]: the tables of the issue-45 tests. */
export type VerdictCase = [name: string, before: string, after: string, rules: string[], failing: number];

/** The rule ids a change reports (sorted) and how many of them fail the run. */
export function expectVerdict(before: string, after: string, rules: readonly string[], failing: number, options: Parameters<typeof compareSides>[2] = {}): void {
  const c = compareYaml(before, after, options);
  expect(c.findings.map((f) => f.rule.id).sort()).toEqual(rules);
  expect(c.failing).toHaveLength(failing);
}
