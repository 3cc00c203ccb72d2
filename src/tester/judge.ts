// What each call must give back (the contract the spec states), as a verdict: undefined when it passed,
// else one line saying what the server did wrong.
import type { PromptExampleModel, ToolExampleModel } from '../model/ir.js';
import { missingPart } from './contains.js';
import type { Outcome } from './session.js';

/** JSON-RPC Invalid params: the refusal the spec asks for on arguments the input schema rejects. */
export const INVALID_PARAMS = -32602;
export const HEADER_MISMATCH = -32020;
/** The server needs a client capability the tester does not declare (sampling, elicitation, roots, tasks). */
const MISSING_CAPABILITY = -32021;

/** A verdict that is neither pass nor fail: the check cannot run against this server (the property stops, the case is skipped). */
export class NotTestable {
  constructor(readonly reason: string) {}
}

export type Verdict = string | NotTestable | undefined;

function untestable(outcome: Outcome): NotTestable | undefined {
  return outcome.kind === 'error' && outcome.code === MISSING_CAPABILITY ? new NotTestable(`needs a client capability the tester does not declare: ${clip(outcome.message)}`) : undefined;
}
const RESOURCE_NOT_FOUND = -32002;

export type OutputCheck = (structured: unknown) => string | undefined;

function toolText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? result.content : [];
  return content.map((c) => (typeof c === 'object' && c !== null && typeof (c as { text?: unknown }).text === 'string' ? (c as { text: string }).text : '')).join(' ').trim();
}

function clip(s: string): string {
  const one = s.replace(/\s+/g, ' ');
  return one.length > 160 ? `${one.slice(0, 160)}…` : one;
}

function notAnswered(outcome: Outcome, timeoutMs: number): string | undefined {
  if (outcome.kind === 'timeout') return `no answer within ${timeoutMs} ms (the call hangs)`;
  if (outcome.kind === 'closed') return `the connection closed (the server crashed?): ${clip(outcome.message)}`;
  return undefined;
}

/** Valid arguments: a result, not a tool error (unless allowed), and structuredContent the output schema accepts. */
export function judgeValid(outcome: Outcome, timeoutMs: number, output: OutputCheck | undefined, allowToolErrors: boolean): Verdict {
  const gone = notAnswered(outcome, timeoutMs) ?? untestable(outcome);
  if (gone !== undefined) return gone;
  if (outcome.kind === 'error') return `protocol error ${outcome.code} for arguments the input schema accepts: ${clip(outcome.message)}`;
  if (outcome.kind !== 'result') return undefined;
  const result = outcome.result;
  if (result.isError === true) return allowToolErrors ? undefined : `tool error for arguments the input schema accepts: ${clip(toolText(result)) || '(no text)'}`;
  if (output === undefined) return undefined;
  if (result.structuredContent === undefined) return 'no structuredContent, though the tool declares an output schema';
  const problem = output(result.structuredContent);
  return problem === undefined ? undefined : `structuredContent does not match the output schema: ${problem}`;
}

/** Invalid arguments: refused as such (-32602, or a tool error naming the argument), never accepted, crashed on or hung. */
export function judgeInvalid(outcome: Outcome, timeoutMs: number, argument: string, headerBound: boolean): Verdict {
  const gone = notAnswered(outcome, timeoutMs);
  if (gone !== undefined) return gone;
  if (outcome.kind === 'error') {
    if (outcome.code === INVALID_PARAMS || (headerBound && outcome.code === HEADER_MISMATCH)) return undefined;
    return `answered ${outcome.code} instead of ${INVALID_PARAMS} (invalid params): ${clip(outcome.message)}`;
  }
  if (outcome.kind !== 'result') return undefined;
  const result = outcome.result;
  if (result.isError !== true) return 'accepted arguments the input schema refuses';
  const text = toolText(result);
  // The SDK's McpServer names no property when it refuses an extra one ("must NOT have additional properties").
  if (text.includes(argument) || text.includes(INVALID_PARAMS.toString()) || /additional propert/i.test(text)) return undefined;
  return `refused with a tool error that does not name ${JSON.stringify(argument)}: ${clip(text) || '(no text)'}`;
}

/** prompts/get with the arguments it declares: messages, never an error. */
export function judgePrompt(outcome: Outcome, timeoutMs: number): Verdict {
  const gone = notAnswered(outcome, timeoutMs) ?? untestable(outcome);
  if (gone !== undefined) return gone;
  if (outcome.kind === 'error') return `protocol error ${outcome.code}: ${clip(outcome.message)}`;
  if (outcome.kind === 'result' && !Array.isArray(outcome.result.messages)) return 'the result has no messages array';
  return undefined;
}

/** resources/read of a URI the template matches: contents, or "not found" / invalid params for values it does not know. */
export function judgeResource(outcome: Outcome, timeoutMs: number): Verdict {
  const gone = notAnswered(outcome, timeoutMs) ?? untestable(outcome);
  if (gone !== undefined) return gone;
  if (outcome.kind === 'error') return outcome.code === RESOURCE_NOT_FOUND || outcome.code === INVALID_PARAMS ? undefined : `protocol error ${outcome.code}: ${clip(outcome.message)}`;
  if (outcome.kind === 'result' && !Array.isArray(outcome.result.contents)) return 'the result has no contents array';
  return undefined;
}

/** A tool example: the answer its `isError` names (a result by default, valid against the output schema), containing its `result`. */
export function judgeToolExample(outcome: Outcome, timeoutMs: number, example: ToolExampleModel, output: OutputCheck | undefined): Verdict {
  const gone = notAnswered(outcome, timeoutMs) ?? untestable(outcome);
  if (gone !== undefined) return gone;
  if (outcome.kind === 'error') return `protocol error ${outcome.code} where the example expects ${example.isError ? 'a tool error (isError: true)' : 'a result'}: ${clip(outcome.message)}`;
  if (outcome.kind !== 'result') return undefined;
  const result = outcome.result;
  if (example.isError && result.isError !== true) return 'a result where the example expects a tool error (isError: true)';
  if (!example.isError) {
    if (result.isError === true) return `a tool error where the example expects a result: ${clip(toolText(result)) || '(no text)'}`;
    const invalid = judgeValid(outcome, timeoutMs, output, false);
    if (invalid !== undefined) return invalid;
  }
  return example.result === undefined ? undefined : missingPart(example.result, result.structuredContent, ['structuredContent']);
}

/** A prompt example: messages, as many as it shows, each containing what it shows. */
export function judgePromptExample(outcome: Outcome, timeoutMs: number, example: PromptExampleModel): Verdict {
  const problem = judgePrompt(outcome, timeoutMs);
  if (problem !== undefined || example.messages === undefined || outcome.kind !== 'result') return problem;
  return missingPart(example.messages, outcome.result.messages, ['messages']);
}
