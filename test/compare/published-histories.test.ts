// False alarms found by running `breaking` over the version histories of published MCP servers (`npm run
// histories`, docs/breaking-changes.md "Real version histories"). Each case is the smallest form of a
// change a publisher shipped that is no break, and each failed before its fix.
import { describe, it } from 'vitest';
import { expectVerdict, toolSpec, type VerdictCase } from './support.js';

const obj = (properties: Record<string, unknown>, more: Record<string, unknown> = {}) => ({ type: 'object', properties, ...more });
const str = { type: 'string' };
const int = (more: Record<string, unknown> = {}) => ({ type: 'integer', ...more });
const SAFE = Number.MAX_SAFE_INTEGER;
const annotated = (annotations: Record<string, unknown>) => `    annotations: ${JSON.stringify(annotations)}`;

// [case, old spec, new spec, rule ids (sorted), failing]
const CASES: VerdictCase[] = [
  // server-memory 2026.7.4 and server-everything: every hint now written out, most with its default value.
  ['hints written out with their default values: no change', toolSpec(obj({})), toolSpec(obj({}), undefined, annotated({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true })), [], 0],
  ['a hint written out with another value than its default: reported', toolSpec(obj({})), toolSpec(obj({}), undefined, annotated({ readOnlyHint: true, destructiveHint: false })), ['ANNOTATION_CHANGED', 'ANNOTATION_CHANGED'], 0],
  // chrome-devtools-mcp 1.10.0 (zod 4): `.int()` writes ±(2^53−1) bounds, beyond which integers do not interoperate (RFC 7493 §2.2).
  ['an integer given the safe-integer bounds: no change', toolSpec(obj({ n: int() })), toolSpec(obj({ n: int({ minimum: -SAFE, maximum: SAFE }) })), [], 0],
  ['an integer given a smaller bound: still breaking', toolSpec(obj({ n: int() })), toolSpec(obj({ n: int({ maximum: SAFE - 1 }) })), ['INPUT_MAXIMUM_LOWERED'], 1],
  ['a number given the safe-integer maximum: still breaking', toolSpec(obj({ n: { type: 'number' } })), toolSpec(obj({ n: { type: 'number', maximum: SAFE } })), ['INPUT_MAXIMUM_LOWERED'], 1],
  // notion-mcp-server 2.4.0: an object argument now also accepted as a JSON string (anyOf [object, string]).
  ['an object argument wrapped in anyOf with a string: its properties are still declared', toolSpec(obj({ sort: obj({ d: str, t: str }) })), toolSpec(obj({ sort: { anyOf: [obj({ d: str, t: str }), str] } })), ['INPUT_WIDENED'], 0],
  ['a property gone from every anyOf branch: still removed', toolSpec(obj({ sort: obj({ d: str, t: str }) })), toolSpec(obj({ sort: { anyOf: [obj({ d: str }), str] } })), ['INPUT_PROPERTY_REMOVED', 'INPUT_WIDENED'], 1],
  // chrome-devtools-mcp 1.11.0 (zod 4): `additionalProperties: {}` (open) closed, with new properties declared in the same release.
  ['additionalProperties {} closed while a property is declared: one finding, the closing', toolSpec(obj({ a: str }, { additionalProperties: {} })), toolSpec(obj({ a: str, b: { type: 'string', enum: ['x'] } }, { additionalProperties: false })), ['INPUT_ADDITIONAL_PROPERTIES_CLOSED'], 1],
];

describe('changes published servers shipped that break no caller', () => {
  it.each(CASES)('%s', (_name, before, after, rules, failing) => expectVerdict(before, after, rules, failing));
});
