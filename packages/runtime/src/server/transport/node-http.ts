// A node:http server around a fetch handler: binds 127.0.0.1 by default, one endpoint path, body size
// and slow-body limits, client disconnects abort the request (cancellation), a bound on what an SSE
// stream may hold for a client that does not read, graceful drain on close.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { vouchFor, type Authenticated } from '../auth/auth.js';
import { RequestCancel, type Cancel } from '../core/cancel.js';
import { createHealthProbes, type HealthPaths, type HealthProbes } from '../ops/health.js';
import type { FastRequest } from './fast-path.js';
import { DEFAULT_MAX_BODY_BYTES, jsonRpcError, type HttpHandler } from './http.js';
import { ended, limitedBody, readAll } from './node-body.js';
import { answer, DEFAULT_MAX_STREAM_BUFFER_BYTES, send } from './node-send.js';
import { setClientAddress } from './rate-limits.js';
import { inflightCounter, requestUrl } from './request-url.js';

export { DEFAULT_MAX_STREAM_BUFFER_BYTES };

export interface ListenOptions extends HealthPaths {
  readonly port?: number;
  /** Default 127.0.0.1: local servers must not listen on every interface. */
  readonly host?: string;
  /** The MCP endpoint. Default `/mcp`. */
  readonly path?: string;
  readonly maxBodyBytes?: number;
  /** Time allowed to receive a whole request (headers and body), in ms. Default 30000. */
  readonly requestTimeoutMs?: number;
  /** Idle keep-alive, ms. Default 65000 > clients' (undici 4 s), balancers' (60 s): they close first. Node's 5 s reset a
   * client busy past it (the SDK compiles output schemas after tools/list: ~5 s for 845 tools; large-server-first-call test). */
  readonly keepAliveTimeoutMs?: number;
  /**
   * Most bytes an SSE response (progress stream, `subscriptions/listen`) may hold unsent because its
   * client does not read. Default 1 MiB. Past it the server drops the stream: the connection is closed
   * without the final event (the client sees a broken stream and must re-issue the request, H18), the
   * request is cancelled as on any disconnect (a tool's `ctx.signal` aborts, a listen subscription ends)
   * and its buffered frames are freed. One frame is always accepted while nothing is waiting, so a large
   * final result is never dropped for its own size.
   */
  readonly maxStreamBufferBytes?: number;
  /**
   * Largest request header block, in bytes: Node answers 431 past it. Default 16 KiB, so a long access
   * token (tens of claims) is verified rather than refused for its length.
   */
  readonly maxHeaderBytes?: number;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly server: NodeServer;
  /**
   * Stop accepting connections, end open `subscriptions/listen` streams, let in-flight requests finish
   * (up to `graceMs`), then close. Requests of clients that went away do not hold the drain.
   */
  close(graceMs?: number): Promise<void>;
  /** Readiness answers 503 from now on; requests are still served (SIGTERM, before close). */
  startDraining(): void;
}

interface Limits {
  readonly path: string;
  readonly probes: HealthProbes;
  readonly maxBody: number;
  readonly maxStreamBuffer: number;
}

/** The Request a live connection serves: undici links a Request's signal to ours only through a WeakRef. */
const servedRequests = new WeakMap<ServerResponse, Request>();

export async function listen(handler: HttpHandler, options: ListenOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const limits: Limits = {
    path: options.path ?? '/mcp',
    maxBody: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxStreamBuffer: options.maxStreamBufferBytes ?? DEFAULT_MAX_STREAM_BUFFER_BYTES,
    probes: createHealthProbes(options, () => handler.readiness),
  };
  // Listen streams never finish on their own: the drain on close does not wait for them.
  const inflight = inflightCounter();
  const listening = new Set<Promise<void>>();
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  // Node checks request timeouts only every connectionsCheckingInterval (30 s by default).
  const server = createServer({ maxHeaderSize: options.maxHeaderBytes ?? 16 * 1024, requestTimeout, headersTimeout: Math.min(requestTimeout, 20_000), connectionsCheckingInterval: Math.max(100, Math.min(1000, requestTimeout / 4)) }, (req, res) => {
    const failed = () => {
      if (!res.headersSent) answer(res, jsonRpcError(500, null, -32603, 'Internal error'));
      else res.destroy();
    };
    if (req.headers['mcp-method'] !== 'subscriptions/listen') {
      // A count, not a Set of promises: one settle handler per request (catch + finally cost ~3 µs at c=1).
      inflight.started();
      serve(handler, req, res, limits).then(inflight.settled, () => {
        try {
          failed();
        } finally {
          inflight.settled();
        }
      });
      return;
    }
    const done = serve(handler, req, res, limits).catch(failed);
    listening.add(done);
    void done.finally(() => listening.delete(done));
  });
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${limits.path}`,
    port,
    server,
    startDraining: () => limits.probes.startDraining(),
    async close(graceMs = 10_000) {
      limits.probes.startDraining();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const deadline = new Promise((r) => setTimeout(r, graceMs).unref());
      await Promise.race([inflight.idle(), deadline]);
      // Ends listen streams with their completion result (and cancels what is still running).
      await handler.close();
      // Let those final frames reach clients that read; the rest are cut below.
      await Promise.race([Promise.allSettled([...listening, inflight.idle()]), new Promise((r) => setTimeout(r, Math.min(1000, graceMs)).unref())]);
      server.closeAllConnections();
      await closed;
    },
  };
}

/** One request on its way: what serve() learned, shared by the fast path and the fetch path. */
interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly limits: Limits;
  readonly cancel: RequestCancel; // the request's signal (made when read) and listeners that need none
  /** Set by the bearer gate of the fast path, before the body is read. */
  admitted?: Authenticated;
}

async function serve(handler: HttpHandler, req: IncomingMessage, res: ServerResponse, limits: Limits): Promise<void> {
  const url = requestUrl(req);
  if (url === undefined) return refuse(req, res, jsonRpcError(400, null, -32600, 'Bad Request: invalid Host header or request target'));
  // Probes come first: a balancer names the pod by its address (no allowed Host) and carries no token.
  const probe = limits.probes.answer(req.method, url.pathname);
  if (probe !== undefined) {
    req.resume();
    return send(res, await probe, limits.maxStreamBuffer);
  }
  // RFC 9728 metadata lives outside the endpoint path; the handler answers it (404 without auth).
  if (url.pathname !== limits.path && !url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
    return refuse(req, res, jsonRpcError(404, null, -32601, `Not found: the MCP endpoint is ${limits.path}`));
  }
  // Node keeps only the first of two Authorization lines; join them as Headers would, so the bearer gate
  // sees ambiguous credentials and refuses them (issue 25 item 7).
  // (headersDistinct builds an array per header, ~3 KB a request: it is read only when there is one to join.)
  if (req.headers.authorization !== undefined && hasTwoAuthorizations(req.rawHeaders)) req.headers.authorization = req.headersDistinct.authorization!.join(', ');
  // Drain before answering, as the fast path does: closing while the client still sends resets the
  // connection and the client can lose the 413 (issue 25 item 3).
  if (Number(req.headers['content-length'] ?? '0') > limits.maxBody) return refuseTooLarge(req, res, limits.maxBody);
  const cancel = new RequestCancel();
  // The client went away before the answer was complete: the cancellation (CN2). `on`: 'close' comes once.
  res.on('close', () => {
    if (!res.writableFinished) cancel.cancel(new Error('client disconnected'));
  });
  const exchange: Exchange = { req, res, url, limits, cancel };
  // Plain JSON tools/call and list requests: fast-path.ts answers them without Web objects or the SDK's
  // per-request pipeline, or hands them back (then they are served below, like any other).
  if (handler.fast !== undefined && req.url === limits.path && handler.fast.wants(req.method, req.headers)) return await serveFast(handler, handler.fast, exchange); // one turn (a returned promise costs two)
  return serveFetch(handler, exchange);
}

/** Whether the raw header list (name, value, name, value…) holds more than one Authorization line. */
function hasTwoAuthorizations(raw: readonly string[]): boolean {
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === 'authorization' && ++seen > 1) return true;
  return false;
}

/** An answer the server makes without reading the body (which is drained, unread). */
function refuse(req: IncomingMessage, res: ServerResponse, response: Response): void {
  req.resume();
  answer(res, response);
}

/**
 * 413, once the rest of the body has arrived (drained, unread) or after 2 s: a server that closes while
 * the client is still sending resets the connection, and the client can lose the 413.
 */
async function refuseTooLarge(req: IncomingMessage, res: ServerResponse, maxBody: number): Promise<void> {
  req.resume();
  await ended(req, 2000);
  answer(res, tooLarge(maxBody));
}

const tooLarge = (maxBody: number): Response => jsonRpcError(413, null, -32600, `Request body exceeds ${maxBody} bytes`);

/** The Web Request handed to the fetch handler, kept alive with the connection. */
function toRequest(x: Exchange, body: ReadableStream<Uint8Array> | Buffer | undefined): Request {
  const request = webRequest(x.req, x.url, x.cancel.controller.signal, body);
  if (x.admitted !== undefined) vouchFor(request, x.admitted);
  setClientAddress(request, x.req.socket.remoteAddress);
  // Keep the Request (and with it the controller its own signal hangs on) alive as long as the
  // connection is: otherwise a collected Request never hears the disconnect, its handler never aborts
  // and a listen stream's timer and bus listener stay forever.
  servedRequests.set(x.res, request);
  return request;
}

async function serveFast(handler: HttpHandler, fastPath: NonNullable<HttpHandler['fast']>, x: Exchange): Promise<void> {
  const { req, res, limits } = x;
  if (fastPath.admit !== undefined) {
    // The bearer gate, before the body is read (as on the SDK path); a refusal leaves the body unread.
    const gate = await fastPath.admit(req.headers, x.url);
    if (gate instanceof Response) return send(res, gate, limits.maxStreamBuffer);
    x.admitted = gate;
  }
  const buffered = await readAll(req, limits.maxBody);
  if (buffered === undefined) return refuseTooLarge(req, res, limits.maxBody);
  const fast = await fastPath.serve(new NodeFastRequest(x, buffered));
  if (fast instanceof Response) return send(res, fast, limits.maxStreamBuffer);
  if (fast !== undefined) {
    if (!res.destroyed) {
      // Node adds Content-Length itself when the whole body comes with end() and no header was written yet.
      res.statusCode = fast.status;
      res.setHeader('content-type', 'application/json');
      res.end(fast.body);
    }
    return;
  }
  let response: Response;
  try {
    response = await handler.fetch(toRequest(x, buffered));
  } catch {
    response = jsonRpcError(500, null, -32603, 'Internal error');
  }
  return send(res, response, limits.maxStreamBuffer);
}

// The fast path's view of a request: a class, no getter in a per-request literal (docs/layout.md, "Per-request
// objects"). The signal is made when read (~12 µs); a disconnect before that still aborts it (abort() makes it).
class NodeFastRequest implements FastRequest {
  readonly headers: IncomingHttpHeaders;
  readonly address: string | undefined;
  readonly auth: Authenticated | undefined;
  readonly cancel: Cancel; // hears the disconnect without making the signal (a proxied call listens here)
  constructor(private readonly x: Exchange, readonly body: Buffer) {
    this.headers = x.req.headers;
    this.address = x.req.socket.remoteAddress;
    this.auth = x.admitted;
    this.cancel = x.cancel;
  }
  get signal(): AbortSignal {
    return this.x.cancel.controller.signal;
  }
  toRequest(): Request {
    return toRequest(this.x, this.body);
  }
}

async function serveFetch(handler: HttpHandler, x: Exchange): Promise<void> {
  const { req, res, limits } = x;
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const body = hasBody ? limitedBody(req, limits.maxBody) : undefined;
  const request = toRequest(x, body?.stream);
  let response: Response;
  try {
    response = await handler.fetch(request);
  } catch {
    response = body?.exceeded() ? tooLarge(limits.maxBody) : jsonRpcError(500, null, -32603, 'Internal error');
  }
  // However the handler read the body (the SDK answers a failed read with 400 -32700): over the limit is 413.
  if (body?.exceeded() && response.status !== 413) {
    await response.body?.cancel().catch(() => {});
    response = tooLarge(limits.maxBody);
  }
  await send(res, response, limits.maxStreamBuffer);
}

/** The Web Request for a node request (Host from the URL: absolute-form names the host). */
function webRequest(req: IncomingMessage, url: URL, signal: AbortSignal, body: ReadableStream<Uint8Array> | Buffer | undefined): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) headers.append(k, item);
    else headers.set(k, v);
  }
  // Absolute-form: the target's authority is the host (the Host check then sees the same name).
  headers.set('host', url.host);
  return new Request(url, {
    method: req.method ?? 'GET',
    headers,
    signal,
    ...(body !== undefined ? { body, duplex: 'half' } : {}),
  } as RequestInit);
}
