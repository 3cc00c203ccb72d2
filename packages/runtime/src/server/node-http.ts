// A node:http server around a fetch handler: binds 127.0.0.1 by default, one endpoint path, body size
// and slow-body limits, client disconnects abort the request (cancellation), graceful drain on close.
import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { DEFAULT_MAX_BODY_BYTES, jsonRpcError, type HttpHandler } from './http.js';

export interface ListenOptions {
  readonly port?: number;
  /** Default 127.0.0.1: local servers must not listen on every interface. */
  readonly host?: string;
  /** The MCP endpoint. Default `/mcp`. */
  readonly path?: string;
  readonly maxBodyBytes?: number;
  /** Time allowed to receive a whole request (headers and body), in ms. Default 30000. */
  readonly requestTimeoutMs?: number;
  /**
   * How long an idle keep-alive connection stays open, in ms. Default 5000 (Node's). Behind a load
   * balancer, set it above the balancer's idle timeout, or the balancer reuses connections this server closed.
   */
  readonly keepAliveTimeoutMs?: number;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly server: NodeServer;
  /** Stop accepting connections, let in-flight requests finish (up to `graceMs`), then close. */
  close(graceMs?: number): Promise<void>;
}

export async function listen(handler: HttpHandler, options: ListenOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const inflight = new Set<Promise<void>>();
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  // Node checks request timeouts only every connectionsCheckingInterval (30 s by default).
  const server = createServer({ requestTimeout, headersTimeout: Math.min(requestTimeout, 20_000), connectionsCheckingInterval: Math.max(100, Math.min(1000, requestTimeout / 4)) }, (req, res) => {
    const done = serve(handler, req, res, path, maxBody).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
    inflight.add(done);
    void done.finally(() => inflight.delete(done));
  });
  if (options.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = options.keepAliveTimeoutMs;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${path}`,
    port,
    server,
    async close(graceMs = 10_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const drained = Promise.allSettled([...inflight]);
      await Promise.race([drained, new Promise((r) => setTimeout(r, graceMs).unref())]);
      await handler.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

async function serve(handler: HttpHandler, req: IncomingMessage, res: ServerResponse, path: string, maxBody: number): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== path) {
    await send(res, jsonRpcError(404, null, -32601, `Not found: the MCP endpoint is ${path}`));
    return;
  }
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > maxBody) {
    await send(res, jsonRpcError(413, null, -32600, `Request body exceeds ${maxBody} bytes`));
    req.resume();
    return;
  }
  const abort = new AbortController();
  // The client went away before the answer was complete: that is the cancellation (CN2).
  res.on('close', () => {
    if (!res.writableFinished) abort.abort(new Error('client disconnected'));
  });
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) headers.append(k, item);
    else headers.set(k, v);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    signal: abort.signal,
    ...(hasBody ? { body: limitedBody(req, maxBody), duplex: 'half' } : {}),
  } as RequestInit);
  let response: Response;
  try {
    response = await handler.fetch(request);
  } catch (e) {
    response = (e as { code?: string }).code === 'BODY_TOO_LARGE' ? jsonRpcError(413, null, -32600, `Request body exceeds ${maxBody} bytes`) : jsonRpcError(500, null, -32603, 'Internal error');
  }
  await send(res, response, abort.signal);
}

function limitedBody(req: IncomingMessage, max: number): ReadableStream<Uint8Array> {
  let size = 0;
  const source = Readable.toWeb(req) as ReadableStream<Uint8Array>;
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > max) controller.error(Object.assign(new Error('body too large'), { code: 'BODY_TOO_LARGE' }));
        else controller.enqueue(chunk);
      },
    }),
  );
}

async function send(res: ServerResponse, response: Response, signal?: AbortSignal): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  if ((headers['content-type'] ?? '').startsWith('text/event-stream')) headers['x-accel-buffering'] = 'no';
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      if (signal?.aborted) break;
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((r) => res.once('drain', r));
      // SSE frames must reach the client now, not when a buffer fills.
      (res as unknown as { flush?: () => void }).flush?.();
    }
  } finally {
    await reader.cancel().catch(() => {});
    res.end();
  }
}
