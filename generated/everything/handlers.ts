// Written once by mcpgen from specs/everything.yaml as a starting point. This file is yours:
// mcpgen never overwrites it. Regenerating updates server.ts, whose types this file must satisfy.

// The conformance suite's fixtures (github:modelcontextprotocol/conformance, everything-server),
// implemented on the generated EverythingHandlers.
import { createHmac, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { MissingRequiredClientCapabilityError, ProtocolError, PublicError, toolError, type RequestContext } from '@mcpgen/runtime/server';
import type { EverythingHandlers } from './server.js';

const IMAGE = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const AUDIO = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';
// requestState crosses the client: state that matters is HMAC-signed and verified (MR6).
const SECRET = process.env.MRTR_STATE_SECRET ?? randomUUID();

const sign = (payload: object) => {
  const data = JSON.stringify(payload);
  return JSON.stringify({ data, hmac: createHmac('sha256', SECRET).update(data).digest('hex') });
};
const verify = (raw: string | undefined): Record<string, unknown> | undefined => {
  if (raw === undefined) return undefined;
  try {
    const { data, hmac } = JSON.parse(raw) as { data: string; hmac: string };
    return hmac === createHmac('sha256', SECRET).update(data).digest('hex') ? (JSON.parse(data) as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};
const field = (response: unknown, name: string): string => {
  const v = ((response as { content?: Record<string, unknown> } | undefined)?.content ?? {})[name];
  return typeof v === 'string' ? v : 'unknown';
};
const form = (message: string, properties: Record<string, object>, required: string[]) => ({
  method: 'elicitation/create' as const,
  params: { message, requestedSchema: { type: 'object', properties, required } },
});
const sample = (text: string, maxTokens: number) => ({
  method: 'sampling/createMessage' as const,
  params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens },
});
const text = (t: string) => [{ type: 'text' as const, text: t }];
const responses = (ctx: RequestContext) => ctx.inputResponses ?? {};

export const handlers: EverythingHandlers = {
  testSimpleText: () => text('This is a simple text response for testing.'),
  testImageContent: () => [{ type: 'image', data: IMAGE, mimeType: 'image/png' }],
  testAudioContent: () => [{ type: 'audio', data: AUDIO, mimeType: 'audio/wav' }],
  testEmbeddedResource: () => [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
  testMultipleContentTypes: () => [
    { type: 'text', text: 'Multiple content types test:' },
    { type: 'image', data: IMAGE, mimeType: 'image/png' },
    { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) } },
  ],
  async testToolWithProgress(_args, ctx) {
    for (const step of [0, 50, 100]) {
      await ctx.progress(step, 100, `Completed step ${step} of 100`);
      if (step < 100) await new Promise((r) => setTimeout(r, 50));
    }
    return text(String(ctx.meta.progressToken ?? 0));
  },
  testErrorHandling() {
    // A PublicError's message is meant for the client; any other thrown error reaches it only as "Tool x failed".
    throw new PublicError('This tool intentionally returns an error for testing');
  },
  testMissingCapability(_args, ctx) {
    if (!ctx.clientCapabilities.sampling) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { sampling: {} } });
    return text('Success');
  },
  testInputRequiredResultElicitation(_args, ctx) {
    const r = responses(ctx);
    if (r.user_name) return text(`Hello, ${field(r.user_name, 'name')}!`);
    return ctx.inputRequired({ user_name: form('What is your name?', { name: { type: 'string' } }, ['name']) });
  },
  testInputRequiredResultSampling(_args, ctx) {
    const r = responses(ctx).sample_request as { content?: { text?: unknown } } | undefined;
    if (r) return text(`Sampling result: ${typeof r.content?.text === 'string' ? r.content.text : 'no response'}`);
    return ctx.inputRequired({ sample_request: sample('What is the capital of France?', 100) });
  },
  testInputRequiredResultListRoots(_args, ctx) {
    const r = responses(ctx).roots_request as { roots?: unknown } | undefined;
    if (r) return text(`Found ${Array.isArray(r.roots) ? r.roots.length : 0} root(s)`);
    return ctx.inputRequired({ roots_request: { method: 'roots/list', params: {} } });
  },
  testInputRequiredResultRequestState(_args, ctx) {
    const state = verify(ctx.requestState);
    const ok = (responses(ctx).confirm as { content?: { ok?: unknown } } | undefined)?.content?.ok;
    if (state?.kind === 'request-state' && ok === true) return text('state-ok: requestState validated');
    return ctx.inputRequired({ confirm: form('Please confirm', { ok: { type: 'boolean' } }, ['ok']) }, sign({ kind: 'request-state', nonce: randomUUID() }));
  },
  testInputRequiredResultMultipleInputs(_args, ctx) {
    const r = responses(ctx);
    if (verify(ctx.requestState)?.kind === 'multiple-inputs' && r.user_name && r.greeting && r.client_roots) {
      const greeting = (r.greeting as { content?: { text?: unknown } }).content?.text;
      const roots = (r.client_roots as { roots?: unknown }).roots;
      return text(`Name: ${field(r.user_name, 'name')}; Greeting: ${typeof greeting === 'string' ? greeting : 'Hello there!'}; Roots: ${Array.isArray(roots) ? roots.length : 0}`);
    }
    return ctx.inputRequired(
      { user_name: form('What is your name?', { name: { type: 'string' } }, ['name']), greeting: sample('Generate a greeting', 50), client_roots: { method: 'roots/list', params: {} } },
      sign({ kind: 'multiple-inputs', nonce: randomUUID() }),
    );
  },
  testInputRequiredResultMultiRound(_args, ctx) {
    const state = verify(ctx.requestState);
    const r = responses(ctx);
    if (state?.round === 1 && r.step1) {
      return ctx.inputRequired({ step2: form('Step 2: What is your favorite color?', { color: { type: 'string' } }, ['color']) }, sign({ round: 2, name: field(r.step1, 'name'), nonce: randomUUID() }));
    }
    if (state?.round === 2 && r.step2) return text(`Multi-round complete for ${typeof state.name === 'string' ? state.name : 'friend'} who likes ${field(r.step2, 'color')}`);
    return ctx.inputRequired({ step1: form('Step 1: What is your name?', { name: { type: 'string' } }, ['name']) }, sign({ round: 1, nonce: randomUUID() }));
  },
  testInputRequiredResultTamperedState(_args, ctx) {
    if (ctx.requestState !== undefined) {
      const state = verify(ctx.requestState);
      if (state === undefined) throw new ProtocolError(-32602, 'requestState integrity check failed');
      if (state.kind === 'tamper-test' && responses(ctx).confirm) return text('tamper-ok: requestState verified');
    }
    return ctx.inputRequired({ confirm: form('Please confirm', { ok: { type: 'boolean' } }, ['ok']) }, sign({ kind: 'tamper-test', nonce: randomUUID() }));
  },
  testInputRequiredResultCapabilities(_args, ctx) {
    const got = Object.keys(responses(ctx));
    if (got.length > 0) return text(`capabilities-ok: received ${got.join(',')}`);
    const requests: Parameters<RequestContext['inputRequired']>[0] = {
      ...(ctx.clientCapabilities.elicitation ? { elicit_input: form('Elicitation input', { value: { type: 'string' } }, ['value']) } : {}),
      ...(ctx.clientCapabilities.sampling ? { sample_input: sample('Sample request', 50) } : {}),
    };
    if (Object.keys(requests).length === 0) return text('No supported capabilities declared');
    return ctx.inputRequired(requests, sign({ kind: 'capabilities-test', nonce: randomUUID() }));
  },
  async testStreamingElicitation(_args, ctx) {
    await ctx.progress(50, 100);
    return text('Streaming complete');
  },
  // Logging is deprecated in 2026-07-28: this server never sends notifications/message.
  testLoggingTool: () => text('Logging evaluated'),
  testTriggerToolChange(_args, ctx) {
    ctx.notify.toolsChanged();
    return text('Mutation triggered');
  },
  testTriggerPromptChange(_args, ctx) {
    ctx.notify.promptsChanged();
    return text('Mutation triggered');
  },
  testHeaderParam: ({ region }) => text(`region=${region}`),
  jsonSchema202012Tool: (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  readStaticText: () => 'This is the content of the static text resource.',
  readStaticBinary: () => new Uint8Array(Buffer.from(IMAGE, 'base64')),
  readWatchedResource: () => 'Watched resource content',
  readStatelessStaticText: () => 'This is the content of the stateless static text resource.',
  readTemplate_: ({ id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
  promptTestSimplePrompt: () => 'This is a simple prompt for testing.',
  promptTestPromptWithArguments: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  promptTestPromptWithEmbeddedResource: ({ resourceUri }) => [
    { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
    { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
  ],
  promptTestPromptWithImage: () => [
    { role: 'user', content: { type: 'image', data: IMAGE, mimeType: 'image/png' } },
    { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
  ],
  promptTestInputRequiredResultPrompt(_args, ctx) {
    const r = responses(ctx);
    if (r.user_context) return `Prompt with context: ${field(r.user_context, 'context')}`;
    return ctx.inputRequired({ user_context: form('What context should the prompt use?', { context: { type: 'string' } }, ['context']) });
  },
  complete: () => [],
  // Tasks (io.modelcontextprotocol/tasks): the same handlers as synchronous tools; the spec's `task:`
  // makes the runtime run them as tasks, their ctx.signal aborts on tasks/cancel.
  greet: ({ name }) => text(`Hello, ${name}!`),
  async slowCompute({ seconds = 0, label = 'result' }, ctx) {
    if (seconds > 0) await sleep(seconds * 1000, undefined, { signal: ctx.signal });
    return text(`Computed ${label} after ${seconds} s`);
  },
  async failingJob(_args, ctx) {
    await sleep(1000, undefined, { signal: ctx.signal });
    return toolError('failing_job: the job failed');
  },
  async protocolErrorJob() {
    await sleep(100);
    throw new ProtocolError(-32603, 'protocol_error_job: internal failure');
  },
  confirmDelete({ filename }, ctx) {
    const answer = ctx.elicit.confirm.response;
    if (answer === undefined) return ctx.elicit.confirm.ask({ message: `Delete ${filename}?` });
    return text(answer.action === 'accept' && answer.content.confirm === true ? `Deleted ${filename}` : `Kept ${filename}`);
  },
  multiInput(_args, ctx) {
    const { name, confirm } = ctx.elicit;
    if (name.response === undefined || confirm.response === undefined) {
      // Both questions at once: the task shows two pending input requests.
      return ctx.inputRequired({ ...name.ask().inputRequests, ...confirm.ask().inputRequests } as Parameters<RequestContext['inputRequired']>[0]);
    }
    const who = name.response.action === 'accept' ? (name.response.content.name ?? 'someone') : 'someone';
    return text(`${who} ${confirm.response.action === 'accept' && confirm.response.content.confirm === true ? 'confirmed' : 'did not confirm'}`);
  },
  testToolWithTask(_args, ctx) {
    // user_name is gathered by MRTR before the task exists (task.beforeTask in the spec).
    const answer = ctx.elicit.user_name.response;
    return text(answer?.action === 'accept' ? `Hello, ${answer.content.name}!` : 'Hello, stranger!');
  },
};
