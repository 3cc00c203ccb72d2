// Raw node:http requests to an MCP endpoint, one connection each, for tests that must control when a
// client reads (or never does) and when it goes away — what fetch hides.
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';

export const V = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {} };

export interface RawCall {
  readonly req: ClientRequest;
  /** The response head, once it arrives. */
  readonly response: Promise<IncomingMessage>;
  /** Resolves with the first body chunk (an SSE frame), unless `read: false`. */
  readonly firstChunk: Promise<string>;
  /** Resolves when the connection is gone, from either side. */
  readonly closed: Promise<void>;
  /** Everything read so far (when reading). */
  text(): string;
  destroy(): void;
}

/** POST one JSON-RPC request. `read: false` never reads the body: the socket backs up like a stalled client's. */
export function rawCall(url: string, method: string, params: Record<string, unknown>, options: { id?: string | number; meta?: Record<string, unknown>; read?: boolean; headers?: Record<string, string> } = {}): RawCall {
  const target = new URL(url);
  const body = JSON.stringify({ jsonrpc: '2.0', id: options.id ?? 1, method, params: { ...params, _meta: { ...META, ...options.meta } } });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': V,
    'mcp-method': method,
    'content-length': String(Buffer.byteLength(body)),
    ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
    ...options.headers,
  };
  const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers, agent: false });
  let received = '';
  let onFirst: (s: string) => void = () => {};
  const firstChunk = new Promise<string>((r) => (onFirst = r));
  const closed = new Promise<void>((resolve) => req.once('close', () => resolve()));
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.once('response', (res) => {
      if (options.read === false) res.pause();
      else
        res.on('data', (c: Buffer) => {
          received += c.toString();
          onFirst(received);
        });
      res.on('error', () => {});
      resolve(res);
    });
    req.once('error', reject);
  });
  response.catch(() => {});
  req.end(body);
  return { req, response, firstChunk, closed, text: () => received, destroy: () => req.destroy() };
}
