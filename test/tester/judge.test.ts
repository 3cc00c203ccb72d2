// The verdicts the tester gives answers, for answers no mcpgen runtime would send (its own output check
// turns a wrong structuredContent into a tool error before the tester sees it).
import { describe, expect, it } from 'vitest';
import { judgeInvalid, judgePromptExample, judgeToolExample, judgeValid, NotTestable } from '../../src/tester/judge.js';
import { validatorOf, type RunAjvs } from '../../src/tester/tool-checks.js';

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

  it('holds an answer to a tool example: the part it shows, the kind of answer it names', () => {
    const example = { label: 'example 1', arguments: {}, result: { conditions: 'sunny', hours: [{ t: 1 }] }, isError: false };
    const answer = (structuredContent: unknown) => judgeToolExample(result({ content: [], structuredContent }), 1000, example, undefined);
    expect(answer({ conditions: 'sunny', hours: [{ t: 1, extra: true }], wind: 3 })).toBeUndefined();
    expect(answer({ conditions: 'rain', hours: [{ t: 1 }] })).toBe('structuredContent.conditions is "rain", the example expects "sunny"');
    expect(answer({ conditions: 'sunny', hours: [] })).toBe('structuredContent.hours has 0 item(s), the example expects 1');
    expect(answer({ conditions: 'sunny', hours: [{}] })).toBe('structuredContent.hours[0].t is missing; the example expects 1');
    expect(answer(undefined)).toBe('structuredContent is absent, the example expects an object');
    expect(judgeToolExample(result({ content: [], structuredContent: { conditions: 'hail' } }), 1000, { ...example, result: { conditions: 'hail' } }, output)).toMatch(/does not match the output schema/);
    expect(judgeToolExample(result({ content: [{ type: 'text', text: 'down' }], isError: true }), 1000, example, undefined)).toBe('a tool error where the example expects a result: down');
    const error = { label: 'example 2', arguments: {}, isError: true };
    expect(judgeToolExample(result({ content: [{ type: 'text', text: 'unknown city' }], isError: true }), 1000, error, output)).toBeUndefined();
    expect(judgeToolExample(result({ content: [], structuredContent: { conditions: 'sunny' } }), 1000, error, output)).toBe('a result where the example expects a tool error (isError: true)');
    expect(judgeToolExample({ kind: 'error', code: -32602, message: 'bad' }, 1000, error, output)).toMatch(/^protocol error -32602 where the example expects a tool error/);
  });

  it('holds an answer to a prompt example message by message', () => {
    const example = { label: 'example 1', arguments: { who: 'Ada' }, messages: [{ role: 'user', content: { text: 'Hi Ada' } }] };
    const messages = (m: unknown[]) => judgePromptExample(result({ messages: m }), 1000, example);
    expect(messages([{ role: 'user', content: { type: 'text', text: 'Hi Ada' } }])).toBeUndefined();
    expect(messages([{ role: 'assistant', content: { type: 'text', text: 'Hi Ada' } }])).toBe('messages[0].role is "assistant", the example expects "user"');
    expect(messages([])).toBe('messages has 0 item(s), the example expects 1');
    expect(judgePromptExample(result({}), 1000, example)).toBe('the result has no messages array');
  });
});

describe('validatorOf with the ajvs of one run', () => {
  it('one ajv per dialect serves the run; a second schema with an $id already taken gets one of its own', () => {
    const ajvs: RunAjvs = new Map();
    const small = validatorOf({ $id: 'https://example.test/n', type: 'integer', maximum: 5 }, ajvs);
    const large = validatorOf({ $id: 'https://example.test/n', type: 'integer', minimum: 100 }, ajvs);
    const old = validatorOf({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'string' }, ajvs);
    expect([...ajvs.keys()].sort()).toEqual(['2020-12', '7']);
    expect([small(3), large(300), old('x')]).toEqual([undefined, undefined, undefined]);
    expect(small(300)).toMatch(/must be <= 5/);
    expect(large(3)).toMatch(/must be >= 100/);
    expect(() => validatorOf({ type: 'integer', maximum: 'five' }, ajvs)).toThrow(/maximum must be number/);
  });
});
