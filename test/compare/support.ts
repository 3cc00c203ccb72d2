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
