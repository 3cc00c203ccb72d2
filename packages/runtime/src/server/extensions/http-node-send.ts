// The upstream call over node:http / node:https with keep-alive agents: what the proxy uses on Node when no
// `fetch` is given. Node 20's fetch (undici) costs ~150 µs more per call than `http.request` on loopback
// (fetch 150–208 µs, http.request 43–59 µs per call, client and server in one process), the largest
// part of a proxied call's own cost. It answers as fetch would: the same header values, the same bounded
// read, redirects followed by the Fetch standard's rules, so the tool result does not depend on which
// transport ran. Loaded on the first proxied call only (workerd and other runtimes keep fetch).
import type { Agent, IncomingMessage, RequestOptions } from 'node:http';
import type { BuiltRequest } from './http-request.js';
import type { UpstreamAnswer } from './http-types.js';

export type NodeSent = { readonly response: UpstreamAnswer; readonly bytes: Uint8Array } | { readonly failed: string; readonly retryable: boolean };

interface Transport {
  readonly request: (typeof import('node:http'))['request'];
  readonly agent: Agent;
}

interface Transports {
  readonly http: Transport;
  readonly https: Transport;
  readonly zlib: Zlib;
}

const MAX_REDIRECTS = 20; // the Fetch standard's limit
let transports: Promise<Transports> | undefined;
/** The modules once loaded: later calls start their request without waiting a turn for them. */
let loaded: Transports | undefined;

function loadTransports(): Promise<Transports> {
  // Free sockets are closed after 4 s, below the 5 s keep-alive timeout of Node servers (undici's default too),
  // so a reused socket is rarely one the upstream is closing.
  transports ??= Promise.all([import('node:http'), import('node:https'), import('node:zlib')]).then(([http, https, zlib]) => ({
    http: { request: http.request, agent: new http.Agent({ keepAlive: true, timeout: 4_000 }) },
    https: { request: https.request, agent: new https.Agent({ keepAlive: true, timeout: 4_000 }) },
    zlib,
  }));
  void transports.then((t) => (loaded = t));
  return transports;
}

/** Node with its http module (not workerd, whose fetch is the native path). */
export function nodeTransportAvailable(): boolean {
  return typeof process !== 'undefined' && typeof process.versions?.node === 'string' && (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent !== 'Cloudflare-Workers';
}

interface Attempt {
  readonly method: string;
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body?: Uint8Array;
}

/** One attempt, redirects included; `timeoutMs` bounds the whole attempt as fetch's AbortSignal.timeout did. */
export async function nodeSend(method: string, request: BuiltRequest, maxBytes: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<NodeSent> {
  const t = loaded ?? (await loadTransports());
  const deadline = Date.now() + timeoutMs;
  let attempt: Attempt = { method, url: new URL(request.url), ...(request.body instanceof FormData ? await encodedForm(request, request.body) : encoded(request, request.body)) };
  for (let hops = 0; ; hops++) {
    const got = await exchange(t, attempt, maxBytes, deadline, timeoutMs, signal);
    if ('failed' in got || !isRedirect(got.response.status)) return got;
    const location = got.response.headers.get('location');
    if (location === null) return got;
    if (hops === MAX_REDIRECTS) return { failed: 'redirect count exceeded', retryable: false };
    attempt = redirected(attempt, got.response.status, new URL(location, attempt.url));
  }
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** Fetch's HTTP-redirect fetch: 303 (and 301/302 after a POST) become a bodiless GET; credentials stay on their origin. */
function redirected(previous: Attempt, status: number, url: URL): Attempt {
  const toGet = (status === 303 && previous.method !== 'GET' && previous.method !== 'HEAD') || ((status === 301 || status === 302) && previous.method === 'POST');
  const headers = { ...previous.headers };
  if (toGet) for (const h of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) delete headers[h];
  if (url.origin !== previous.url.origin) delete headers.authorization;
  return { method: toGet ? 'GET' : previous.method, url, headers, ...(toGet || previous.body === undefined ? {} : { body: previous.body }) };
}

/** Headers as node:http takes them, and the body as bytes. */
function encoded(request: BuiltRequest, body: string | Uint8Array | undefined): { headers: Record<string, string>; body?: Uint8Array } {
  const headers = Object.fromEntries(request.headers);
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  if (body === undefined) return { headers };
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  headers['content-length'] = String(bytes.byteLength);
  return { headers, body: bytes };
}

/** A FormData body encoded by the platform's own multipart encoder (its boundary in the content type). */
async function encodedForm(request: BuiltRequest, form: FormData): Promise<{ headers: Record<string, string>; body?: Uint8Array }> {
  const encoder = new Request('http://localhost/', { method: 'POST', body: form });
  const bytes = new Uint8Array(await encoder.arrayBuffer());
  const out = encoded(request, bytes);
  out.headers['content-type'] = encoder.headers.get('content-type')!;
  return out;
}

function exchange(t: Transports, a: Attempt, maxBytes: number, deadline: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<NodeSent> {
  const transport = a.url.protocol === 'https:' ? t.https : a.url.protocol === 'http:' ? t.http : undefined;
  if (transport === undefined) return Promise.resolve({ failed: `unsupported URL scheme ${a.url.protocol}`, retryable: false });
  if (signal?.aborted === true) return Promise.resolve({ failed: 'the call was cancelled', retryable: false });
  return new Promise((resolve) => {
    const options: RequestOptions = { method: a.method, headers: a.headers, agent: transport.agent };
    const req = transport.request(a.url, options);
    let settled = false;
    const done = (result: NodeSent): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const timer = setTimeout(() => {
      done({ failed: `timed out after ${timeoutMs} ms`, retryable: true });
      req.destroy();
    }, Math.max(0, deadline - Date.now()));
    const onAbort = (): void => {
      done({ failed: 'the call was cancelled', retryable: false });
      req.destroy();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e: NodeJS.ErrnoException) => done({ failed: `${e.message}${typeof e.code === 'string' && !e.message.includes(e.code) ? ` (${e.code})` : ''}`, retryable: true }));
    req.on('response', (res) => void readAnswer(res, maxBytes, t.zlib).then(done));
    req.end(a.body);
  });
}

/** Reads the body chunk by chunk (decoded as fetch decodes it) and stops at the bound, as the fetch path's readBounded does. */
function readAnswer(res: IncomingMessage, maxBytes: number, zlib: Zlib): Promise<NodeSent> {
  const headers = rawHeaderView(res.rawHeaders);
  const status = res.statusCode ?? 0;
  const response: UpstreamAnswer = { status, statusText: res.statusMessage ?? '', ok: status >= 200 && status < 300, headers };
  const declared = Number(headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    res.destroy();
    return Promise.resolve({ failed: `upstream answer is ${declared} bytes, over the ${maxBytes}-byte bound`, retryable: false });
  }
  const body = decoded(res, headers.get('content-encoding'), zlib);
  // Stream events, not `for await`: the async iterator costs more than the rest of the read on a small answer.
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= maxBytes) return void chunks.push(chunk);
      body.removeAllListeners('data');
      res.destroy();
      resolve({ failed: `upstream answer is over the ${maxBytes}-byte bound`, retryable: false });
    });
    body.once('end', () => resolve({ response, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }));
    body.once('error', (e: Error) => resolve({ failed: e.message, retryable: true }));
    // Closed before its end without an error (the iterator's premature close): the first settlement wins.
    body.once('close', () => resolve({ failed: 'Premature close', retryable: true }));
  });
}

/**
 * `Headers.get` over node:http's raw lines without building a `Headers` per answer: names compared
 * case-insensitively, repeated lines joined with ", ", values without surrounding HTTP whitespace.
 */
export function rawHeaderView(raw: readonly string[]): UpstreamAnswer['headers'] {
  return {
    get(name: string): string | null {
      const wanted = name.toLowerCase();
      let out: string | null = null;
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const key = raw[i]!;
        if (key.length !== wanted.length || key.toLowerCase() !== wanted) continue;
        const value = raw[i + 1]!.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
        out = out === null ? value : `${out}, ${value}`;
      }
      return out;
    },
  };
}

type Zlib = typeof import('node:zlib');

/** fetch asks for and undoes gzip, deflate and br; so does this path (a bound counts decoded bytes, as there). */
function decoded(res: IncomingMessage, encoding: string | null, zlib: Zlib): NodeJS.ReadableStream {
  const codings = (encoding ?? '').toLowerCase().split(',').map((c) => c.trim()).filter((c) => c !== '' && c !== 'identity').reverse();
  let stream: NodeJS.ReadableStream = res;
  for (const c of codings) {
    const step = c === 'gzip' || c === 'x-gzip' ? zlib.createGunzip() : c === 'deflate' ? zlib.createInflate() : c === 'br' ? zlib.createBrotliDecompress() : undefined;
    if (step === undefined) return stream; // an unknown coding: the bytes as they came, as fetch gives them
    stream.on('error', (e) => step.destroy(e));
    stream = stream.pipe(step);
  }
  return stream;
}
