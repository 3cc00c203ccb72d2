// Every message a generated client or server puts on the wire, checked against the official
// 2026-07-28 JSON Schema (vendor/mcp-2026-07-28/schema.json, vendored from upstream).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Transport } from '@modelcontextprotocol/client';
import { createAjv, type Ajv2020 } from '../../packages/runtime/src/shared/ajv.js';

const SCHEMA_PATH = resolve(import.meta.dirname, '../../vendor/mcp-2026-07-28/schema.json');

let ajv: Ajv2020 | undefined;
function mcpAjv(): Ajv2020 {
  if (ajv === undefined) {
    ajv = createAjv({ strict: false });
    ajv.addSchema({ ...JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')), $id: 'mcp' });
  }
  return ajv;
}

/** Errors of `value` against `$defs/<type>`; empty when valid. */
export function schemaErrors(type: string, value: unknown): string[] {
  const validate = mcpAjv().getSchema(`mcp#/$defs/${type}`);
  if (validate === undefined) throw new Error(`no $defs/${type} in schema.json`);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

const REQUEST_TYPES: Record<string, string> = {
  'server/discover': 'Discover',
  'tools/list': 'ListTools',
  'tools/call': 'CallTool',
  'resources/list': 'ListResources',
  'resources/templates/list': 'ListResourceTemplates',
  'resources/read': 'ReadResource',
  'prompts/list': 'ListPrompts',
  'prompts/get': 'GetPrompt',
  'completion/complete': 'Complete',
  'subscriptions/listen': 'SubscriptionsListen',
};
const RESULT_TYPES: Record<string, string> = { ...REQUEST_TYPES, 'server/discover': 'DiscoverResult', 'subscriptions/listen': 'SubscriptionsListenResult' };
const NOTIFICATIONS: Record<string, string> = {
  'notifications/cancelled': 'CancelledNotification',
  'notifications/progress': 'ProgressNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
  'notifications/prompts/list_changed': 'PromptListChangedNotification',
  'notifications/resources/list_changed': 'ResourceListChangedNotification',
  'notifications/resources/updated': 'ResourceUpdatedNotification',
  'notifications/subscriptions/acknowledged': 'SubscriptionsAcknowledgedNotification',
};

export interface WireEntry {
  readonly direction: 'client→server' | 'server→client';
  readonly message: Record<string, unknown>;
}

/** A log of messages; `problems()` lists every one that breaks the schema or the resultType rule. */
export class WireLog {
  readonly entries: WireEntry[] = [];
  readonly #methods = new Map<string, string>();

  record(direction: WireEntry['direction'], message: unknown): void {
    const m = message as Record<string, unknown>;
    this.entries.push({ direction, message: m });
    if (direction === 'client→server' && typeof m.method === 'string' && m.id !== undefined) this.#methods.set(JSON.stringify(m.id), m.method);
  }

  methods(direction: WireEntry['direction']): string[] {
    return this.entries.filter((e) => e.direction === direction && typeof e.message.method === 'string').map((e) => String(e.message.method));
  }

  problems(): string[] {
    const out: string[] = [];
    for (const { direction, message: m } of this.entries) {
      const label = `${direction} ${JSON.stringify(m).slice(0, 160)}`;
      const fail = (type: string) => {
        const errors = schemaErrors(type, m);
        if (errors.length > 0) out.push(`${label}\n  not a valid ${type}: ${errors.slice(0, 3).join('; ')}`);
      };
      if (typeof m.method === 'string') {
        if (m.id !== undefined) {
          const t = REQUEST_TYPES[m.method];
          if (direction !== 'client→server') out.push(`${label}\n  servers never send requests`);
          else if (t === undefined) out.push(`${label}\n  unknown request method`);
          else fail(`${t}Request`);
        } else {
          const t = NOTIFICATIONS[m.method];
          if (t === undefined) out.push(`${label}\n  unknown notification`);
          else fail(t);
        }
      } else if ('error' in m) {
        fail('JSONRPCErrorResponse');
      } else {
        const method = this.#methods.get(JSON.stringify(m.id));
        const t = method === undefined ? undefined : RESULT_TYPES[method];
        if (t === undefined) out.push(`${label}\n  response to an unknown request`);
        else fail(t.endsWith('Result') ? `${t}Response` : `${t}ResultResponse`);
        const rt = (m.result as { resultType?: unknown } | undefined)?.resultType;
        if (rt !== 'complete' && rt !== 'input_required') out.push(`${label}\n  resultType must be "complete" or "input_required", got ${JSON.stringify(rt)}`);
      }
    }
    return out;
  }
}

/** A fetch that logs each JSON-RPC message of the exchange (JSON bodies and SSE `data:` lines). */
export function tappedFetch(log: WireLog, pending: Promise<void>[]): typeof fetch {
  return async (input, init) => {
    const body = init?.body;
    if (typeof body === 'string') log.record('client→server', JSON.parse(body));
    const response = await fetch(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('application/json')) {
      const text = await response.clone().text();
      if (text !== '') log.record('server→client', JSON.parse(text));
    } else if (type.includes('text/event-stream') && response.body !== null) {
      const [mine, theirs] = response.body.tee();
      pending.push(readSse(mine, (m) => log.record('server→client', m)));
      return new Response(theirs, { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    return response;
  };
}

async function readSse(stream: ReadableStream<Uint8Array>, onMessage: (m: unknown) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
        if (data !== '') onMessage(JSON.parse(data));
      }
    }
  } catch {
    // stream aborted by the client: whatever arrived is logged
  }
}

/** Wrap a transport so every message in both directions is logged. */
export function tappedTransport(inner: Transport, log: WireLog): Transport {
  const tap: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: (message, options) => {
      log.record('client→server', message);
      return inner.send(message, options);
    },
  };
  inner.onmessage = (message, extra) => {
    log.record('server→client', message);
    tap.onmessage?.(message, extra);
  };
  inner.onclose = () => tap.onclose?.();
  inner.onerror = (e) => tap.onerror?.(e);
  return tap;
}
