// The verdicts the tester gives answers, for answers no mcpgen runtime would send (its own output check
// turns a wrong structuredContent into a tool error before the tester sees it).
import { describe, expect, it } from 'vitest';
import { judgeInvalid, judgeValid, NotTestable } from '../../src/tester/judge.js';
import { validatorOf } from '../../src/tester/tool-checks.js';

const output = validatorOf({ type: 'object', properties: { conditions: { enum: ['sunny', 'rain'] } }, required: ['conditions'] });
const result = (r: Record<string, unknown>) => ({ kind: 'result' as const, result: r });

describe('judge', () => {
  it('checks structuredContent against the output schema itself', () => {
    expect(judgeValid(result({ content: [], structuredContent: { conditions: 'sunny' } }), 1000, output, false)).toBeUndefined();
    expect(judgeValid(result({ content: [], structuredContent: { conditions: 'hail' } }), 1000, output, false)).toMatch(/does not match the output schema: \/conditions must be equal to one of the allowed values/);
    expect(judgeValid(result({ content: [], structuredContent: {} }), 1000, output, false)).toMatch(/must have required property 'conditions'/);
    expect(judgeValid(result({ content: [] }), 1000, output, false)).toMatch(/no structuredContent/);
  });

  it('tells errors, hangs, crashes and missing client capabilities apart', () => {
    expect(judgeValid({ kind: 'error', code: -32603, message: 'boom' }, 1000, undefined, false)).toMatch(/protocol error -32603/);
    expect(judgeValid({ kind: 'timeout' }, 1000, undefined, false)).toMatch(/no answer within 1000 ms/);
    expect(judgeValid({ kind: 'closed', message: 'Connection closed' }, 1000, undefined, false)).toMatch(/connection closed/);
    expect(judgeValid({ kind: 'error', code: -32021, message: 'needs sampling' }, 1000, undefined, false)).toBeInstanceOf(NotTestable);
    expect(judgeValid(result({ content: [{ type: 'text', text: 'nope' }], isError: true }), 1000, undefined, true)).toBeUndefined();
  });

  it('wants invalid arguments refused as such', () => {
    expect(judgeInvalid({ kind: 'error', code: -32602, message: 'bad' }, 1000, 'city', false)).toBeUndefined();
    expect(judgeInvalid(result({ content: [{ type: 'text', text: 'city: expected string' }], isError: true }), 1000, 'city', false)).toBeUndefined();
    expect(judgeInvalid(result({ content: [{ type: 'text', text: 'failed' }], isError: true }), 1000, 'city', false)).toMatch(/does not name "city"/);
    expect(judgeInvalid(result({ content: [] }), 1000, 'city', false)).toMatch(/accepted arguments the input schema refuses/);
    expect(judgeInvalid({ kind: 'error', code: -32020, message: 'mismatch' }, 1000, 'region', true)).toBeUndefined();
    expect(judgeInvalid({ kind: 'error', code: -32603, message: 'x' }, 1000, 'city', false)).toMatch(/answered -32603 instead of -32602/);
  });
});
