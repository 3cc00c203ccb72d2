// What handlers return. Branded objects keep "data for structuredContent" apart from "a whole result".
import type { ContentBlock, GetPromptResult, PromptMessage, ReadResourceResult } from '@modelcontextprotocol/server';
import { ProtocolError, ResourceNotFoundError } from '@modelcontextprotocol/server';

const REPLY = Symbol.for('mcpgen.reply');
const INPUT = Symbol.for('mcpgen.inputRequired');

export interface ToolReply<O = unknown> {
  readonly [REPLY]: true;
  readonly structuredContent?: O;
  readonly content?: readonly ContentBlock[];
  readonly isError?: boolean;
}

/** A full tool result: extra content blocks, or `isError` for a failure the model should see. */
export function reply<O>(r: { structuredContent?: O; content?: readonly ContentBlock[]; isError?: boolean }): ToolReply<O> {
  return { [REPLY]: true, ...r };
}

/** A tool failure reported to the model (`isError: true`) rather than as a protocol error. */
export function toolError(message: string): ToolReply<never> {
  return reply({ content: [{ type: 'text', text: message }], isError: true });
}

export function isToolReply(v: unknown): v is ToolReply {
  return typeof v === 'object' && v !== null && (v as Record<symbol, unknown>)[REPLY] === true;
}

/** Returned by a handler to ask the client for input (MRTR): built by `ctx.elicit.<key>.ask()`. */
export interface InputRequiredReply {
  readonly [INPUT]: true;
  readonly inputRequests: Readonly<Record<string, { readonly method: string; readonly params?: Readonly<Record<string, unknown>> }>>;
  readonly requestState?: string;
}

export function inputRequiredReply(inputRequests: InputRequiredReply['inputRequests'], requestState?: string): InputRequiredReply {
  return { [INPUT]: true, inputRequests, ...(requestState !== undefined ? { requestState } : {}) };
}

export function isInputRequiredReply(v: unknown): v is InputRequiredReply {
  return typeof v === 'object' && v !== null && (v as Record<symbol, unknown>)[INPUT] === true;
}

/** Resource read results: text, bytes (sent base64), or the full contents list. */
export type ResourceReply = string | Uint8Array | ReadResourceResult['contents'] | { readonly contents: ReadResourceResult['contents'] };

/** Prompt results: one user message of text, a message list, or the full result. */
export type PromptReply = string | readonly PromptMessage[] | GetPromptResult;

/**
 * Throw this when the client should read the message: a tool call answers `isError: true` with it, a
 * resource read, prompt or completion answers JSON-RPC -32603 with it. Any other thrown value reaches
 * the client only as a generic message ("Tool x failed"); its details go to `onHandlerError`.
 */
export class PublicError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PublicError';
  }
}

/** Throw from a resource handler when the resource does not exist (JSON-RPC -32602 with the URI). */
export function notFound(uri: string): never {
  throw new ResourceNotFoundError(uri);
}

/** Throw for a JSON-RPC error with an application code (outside -32768…-32000). */
export function protocolError(code: number, message: string, data?: unknown): never {
  throw new ProtocolError(code, message, data);
}

/** What a tool handler with an output schema returns: the structuredContent itself, or a full reply. */
export type ToolReturn<O> = O | ToolReply<O>;

/** What a tool handler without an output schema returns: text, content blocks, or a full reply. */
export type ContentToolReturn = string | readonly ContentBlock[] | ToolReply<unknown> | void;
