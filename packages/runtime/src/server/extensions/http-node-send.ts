// The upstream call over node:http / node:https with keep-alive agents: what the proxy uses on Node when no
// `fetch` is given. Node 20's fetch (undici) costs ~150 µs more per call than `http.request` on loopback
// (fetch 150–208 µs, http.request 43–59 µs per call, client and server in one process), the largest
// part of a proxied call's own cost. It answers as fetch would: the same header values, the same bounded
// read, redirects followed by the Fetch standard's rules, so the tool result does not depend on which
// transport ran. Loaded on the first proxied call only (workerd and other runtimes keep fetch).
import type { Agent, IncomingMessage } from 'node:http';
import type { Cancel } from '../core/cancel.js';
import { addDeadline, clearDeadline } from './http-deadlines.js';
import { isRedirect, MAX_REDIRECTS, nextHop, type CredentialPlaces } from './http-redirect.js';
import type { RequestParts } from './http-request.js';
import { targetOf } from './http-target.js';
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
  // Asked on every call, answered once (it cannot change in a running process).
  return (nodeAvailable ??= typeof process !== 'undefined' && typeof process.versions?.node === 'string' && (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent !== 'Cloudflare-Workers');
}
let nodeAvailable: boolean | undefined;

interface Attempt {
  readonly method: string;
  /** As built (a string), or parsed once a redirect needed it. */
  readonly url: string | URL;
  readonly headers: Record<string, string>;
  readonly body?: Uint8Array;
}

/** What every hop of one attempt shares. */
interface Bounds {
  readonly maxBytes: number;
  readonly deadline: number;
  readonly timeoutMs: number;
  /** The call's cancellation (its signal, or the fast path's Cancel that needs none). */
  readonly cancel: Cancel | undefined;
  readonly credentials: CredentialPlaces | undefined;
}

type Settle = (result: NodeSent) => void;

/**
 * One attempt, redirects included; `timeoutMs` bounds the whole attempt as fetch's AbortSignal.timeout did.
 * One promise for all of it: the hops chain by callbacks, not a turn each.
 */
export function nodeSend(method: string, request: RequestParts, maxBytes: number, timeoutMs: number, cancel: Cancel | undefined): Promise<NodeSent> {
  const t = loaded;
  if (t === undefined || request.body instanceof FormData) return firstSend(method, request, maxBytes, timeoutMs, cancel);
  const bounds: Bounds = { maxBytes, deadline: Date.now() + timeoutMs, timeoutMs, cancel, credentials: request.credentials };
  const first: Attempt = encoded(method, request.url, request.headers, request.body);
  return new Promise((resolve, reject) => follow(t, first, bounds, 0, resolve, reject));
}

/** The first call (the modules to load) or a multipart body (encoded by the platform, asynchronously). */
async function firstSend(method: string, request: RequestParts, maxBytes: number, timeoutMs: number, cancel: Cancel | undefined): Promise<NodeSent> {
  const t = loaded ?? (await loadTransports());
  const bounds: Bounds = { maxBytes, deadline: Date.now() + timeoutMs, timeoutMs, cancel, credentials: request.credentials };
  const first = request.body instanceof FormData ? await encodedForm(method, request.url, request.headers, request.body) : encoded(method, request.url, request.headers, request.body);
  return new Promise((resolve, reject) => follow(t, first, bounds, 0, resolve, reject));
}

function follow(t: Transports, a: Attempt, bounds: Bounds, hops: number, resolve: Settle, reject: (e: unknown) => void): void {
  try {
    exchange(t, a, bounds, (got) => {
      if ('failed' in got || !isRedirect(got.response.status)) return resolve(got);
      const location = got.response.headers.get('location');
      if (location === null) return resolve(got);
      if (hops === MAX_REDIRECTS) return resolve({ failed: 'redirect count exceeded', retryable: false });
      let next: Attempt;
      try {
        const from = urlOf(a);
        next = nextHop({ ...a, url: from }, got.response.status, new URL(location, from), bounds.credentials);
      } catch (e) {
        return reject(e);
      }
      follow(t, next, bounds, hops + 1, resolve, reject);
    });
  } catch (e) {
    // A header node:http refuses (as Headers would have), an unparsable URL: the call fails as before the attempt.
    reject(e);
  }
}

function urlOf(a: Attempt): URL {
  return typeof a.url === 'string' ? new URL(a.url) : a.url;
}

/** The attempt as node:http takes it: the body as bytes (the headers record is this attempt's own, added to here). */
function encoded(method: string, url: string, headers: Record<string, string>, body: string | Uint8Array | undefined): Attempt {
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  if (body === undefined) return { method, url, headers };
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  headers['content-length'] = String(bytes.byteLength);
  return { method, url, headers, body: bytes };
}

/** A FormData body encoded by the platform's own multipart encoder (its boundary in the content type). */
async function encodedForm(method: string, url: string, headers: Record<string, string>, form: FormData): Promise<Attempt> {
  const encoder = new Request('http://localhost/', { method: 'POST', body: form });
  const bytes = new Uint8Array(await encoder.arrayBuffer());
  const out = encoded(method, url, headers, bytes);
  out.headers['content-type'] = encoder.headers.get('content-type')!;
  return out;
}

function exchange(t: Transports, a: Attempt, bounds: Bounds, settle: Settle): void {
  const target = targetOf(a.url);
  const transport = target.protocol === 'https:' ? t.https : target.protocol === 'http:' ? t.http : undefined;
  if (transport === undefined) return settle({ failed: `unsupported URL scheme ${target.protocol}`, retryable: false });
  const { cancel } = bounds;
  if (cancel?.cancelled === true) return settle({ failed: 'the call was cancelled', retryable: false });
  const req = transport.request({ protocol: target.protocol, hostname: target.hostname, port: target.port, path: target.path, auth: target.auth, method: a.method, headers: a.headers, agent: transport.agent });
  let settled = false;
  const done = (result: NodeSent): void => {
    if (settled) return;
    settled = true;
    clearDeadline(deadline);
    cancel?.unlisten(onAbort);
    settle(result);
  };
  const deadline = addDeadline(bounds.deadline, () => {
    done({ failed: `timed out after ${bounds.timeoutMs} ms`, retryable: true });
    req.destroy();
  });
  const onAbort = (): void => {
    done({ failed: 'the call was cancelled', retryable: false });
    req.destroy();
  };
  cancel?.listen(onAbort);
  req.on('error', (e: NodeJS.ErrnoException) => done({ failed: `${e.message}${typeof e.code === 'string' && !e.message.includes(e.code) ? ` (${e.code})` : ''}`, retryable: true }));
  req.on('response', (res) => readAnswer(res, bounds.maxBytes, t.zlib, done));
  req.end(a.body);
}

/** Reads the body chunk by chunk (decoded as fetch decodes it) and stops at the bound, as the fetch path's readBounded does. */
function readAnswer(res: IncomingMessage, maxBytes: number, zlib: Zlib, settle: Settle): void {
  const headers = rawHeaderView(res.rawHeaders);
  const status = res.statusCode ?? 0;
  const response: UpstreamAnswer = { status, statusText: res.statusMessage ?? '', ok: status >= 200 && status < 300, headers };
  const declared = Number(headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    res.destroy();
    return settle({ failed: `upstream answer is ${declared} bytes, over the ${maxBytes}-byte bound`, retryable: false });
  }
  const body = decoded(res, headers.get('content-encoding'), zlib);
  // Stream events, not `for await`: the async iterator costs more than the rest of the read on a small answer.
  // `on`, not `once`: settle takes the first result only, and `once` wraps each listener.
  const chunks: Buffer[] = [];
  let size = 0;
  body.on('data', (chunk: Buffer) => {
    size += chunk.byteLength;
    if (size <= maxBytes) return void chunks.push(chunk);
    body.removeAllListeners('data');
    res.destroy();
    settle({ failed: `upstream answer is over the ${maxBytes}-byte bound`, retryable: false });
  });
  body.on('end', () => settle({ response, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }));
  body.on('error', (e: Error) => settle({ failed: e.message, retryable: true }));
  // Closed before its end without an error (the iterator's premature close): the first settlement wins.
  body.on('close', () => settle({ failed: 'Premature close', retryable: true }));
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
  if (encoding === null) return res;
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
