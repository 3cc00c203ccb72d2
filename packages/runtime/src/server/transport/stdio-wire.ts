// The byte layer of the stdio transport, under the SDK's serveStdio (which does the protocol): lines in,
// lines out. What the SDK's own StdioServerTransport does not: a line over the limit is answered and
// skipped instead of closing the connection (and the process exiting 0 without a word), a line that
// is not JSON is answered -32700 instead of dropped, one that is JSON but no JSON-RPC message -32600,
// and stdin's end lets running requests write their answers before the connection closes (SI8).
import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import type { StdioProtocolSpans } from './stdio-spans.js';

export const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;

export interface StdioWireOptions {
  /** Longest accepted line (one message), in bytes. Default 10 MiB (the SDK's). */
  readonly maxLineBytes?: number;
  /** After stdin ends, how long running requests may still answer, in ms. Default 10000. */
  readonly drainMs?: number;
}

type Id = string | number;

export class StdioWire implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #stdin: NodeJS.ReadableStream;
  readonly #stdout: NodeJS.WritableStream;
  readonly #maxLine: number;
  readonly #drainMs: number;
  readonly #spans: StdioProtocolSpans | undefined;
  #chunks: Buffer[] = [];
  #size = 0;
  #skipping = false;
  #ended = false;
  #closed = false;
  /** Requests delivered and not yet answered (listen streams excepted: they answer only at teardown). */
  readonly #pending = new Set<string>();

  /** `spans`: the server spans of what the SDK answers itself (with telemetry on). */
  constructor(stdin: NodeJS.ReadableStream = process.stdin, stdout: NodeJS.WritableStream = process.stdout, options: StdioWireOptions = {}, spans?: StdioProtocolSpans) {
    this.#stdin = stdin;
    this.#spans = spans;
    this.#stdout = stdout;
    this.#maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.#drainMs = options.drainMs ?? 10_000;
  }

  async start(): Promise<void> {
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('end', this.#onEnd);
    this.#stdin.on('close', this.#onEnd);
    this.#stdin.on('error', this.#onError);
    this.#stdout.on('error', this.#onError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if ('id' in message && message.id !== undefined && ('result' in message || 'error' in message)) this.#settle(message.id as Id);
    await this.#write(message);
    this.#spans?.sent(message);
    if (this.#ended && this.#pending.size === 0) void this.close();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('end', this.#onEnd);
    this.#stdin.off('close', this.#onEnd);
    this.#stdin.pause();
    this.#chunks = [];
    this.#spans?.close();
    this.onclose?.();
  }

  #write(message: unknown): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      // Resolves when the line is handed to the OS, or failed (EPIPE: the client is gone): never hangs.
      this.#stdout.write(`${JSON.stringify(message)}\n`, (error) => {
        if (error) this.onerror?.(error);
        resolve();
      });
    });
  }

  #settle(id: Id): void {
    this.#pending.delete(JSON.stringify(id));
  }

  readonly #onError = (error: Error) => this.onerror?.(error);

  readonly #onEnd = () => {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#pending.size === 0) {
      void this.close();
      return;
    }
    // Unref'd: a running handler's own work keeps the process alive, this only bounds the wait.
    setTimeout(() => void this.close(), this.#drainMs).unref();
  };

  readonly #onData = (chunk: Buffer | string) => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (;;) {
      const nl = data.indexOf(10, start);
      if (nl === -1) {
        this.#append(data.subarray(start));
        return;
      }
      this.#append(data.subarray(start, nl));
      this.#endLine();
      start = nl + 1;
    }
  };

  #append(part: Buffer): void {
    if (this.#skipping || part.length === 0) return;
    if (this.#size + part.length > this.#maxLine) {
      // Answered now; the rest of the line is skipped as it arrives, never buffered.
      this.#skipping = true;
      this.#chunks = [];
      this.#size = 0;
      void this.#write(errorMessage(-32700, `Parse error: message exceeds ${this.#maxLine} bytes`));
      return;
    }
    this.#chunks.push(part);
    this.#size += part.length;
  }

  #endLine(): void {
    if (this.#skipping) {
      this.#skipping = false;
      return;
    }
    const bytes = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    this.#chunks = [];
    this.#size = 0;
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/\r$/, '');
    } catch {
      void this.#write(errorMessage(-32700, 'Parse error: the message is not valid UTF-8'));
      return;
    }
    if (text.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      void this.#write(errorMessage(-32700, 'Parse error: the message is not valid JSON'));
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(json);
    } catch {
      const id = (json as { id?: unknown } | null)?.id;
      void this.#write(errorMessage(-32600, 'Invalid Request: not a JSON-RPC 2.0 message', typeof id === 'string' || typeof id === 'number' ? id : undefined));
      return;
    }
    if ('method' in message && 'id' in message && message.method !== 'subscriptions/listen') this.#pending.add(JSON.stringify(message.id));
    if ('method' in message && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.#settle(id);
    }
    if (this.#spans === undefined) this.onmessage?.(message);
    else this.#spans.receive(message, this.#deliver);
  }

  readonly #deliver = (message: JSONRPCMessage) => this.onmessage?.(message);
}

/** An error the wire answers itself; without `id` when none could be read (the schema allows no null id). */
function errorMessage(code: number, message: string, id?: Id): Record<string, unknown> {
  return { jsonrpc: '2.0', ...(id !== undefined ? { id } : {}), error: { code, message } };
}
