// Writing a Web Response to a node:http response, for node-http.ts: SSE frames flushed at once and a
// client that does not read dropped past a bound; other bodies copied with backpressure.
import type { ServerResponse } from 'node:http';

export const DEFAULT_MAX_STREAM_BUFFER_BYTES = 1024 * 1024;

/** A small answer the server makes itself (errors): written at once. */
export function answer(res: ServerResponse, response: Response): void {
  void send(res, response, DEFAULT_MAX_STREAM_BUFFER_BYTES);
}

export async function send(res: ServerResponse, response: Response, maxStreamBuffer: number): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  const sse = (headers['content-type'] ?? '').startsWith('text/event-stream');
  if (sse) headers['x-accel-buffering'] = 'no';
  if (res.destroyed) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // A closed connection ends the copy at once: a read pending on a quiet stream (listen) returns done.
  const onClose = () => void reader.cancel().catch(() => {});
  res.once('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (sse) {
        // Keep reading so nothing piles up in the stream behind us; what the socket has not taken is
        // bounded: a client this far behind is dropped (ListenOptions.maxStreamBufferBytes).
        if (res.writableLength > maxStreamBuffer) {
          res.destroy();
          break;
        }
        res.write(value);
        // SSE frames must reach the client now, not when a buffer fills.
        (res as unknown as { flush?: () => void }).flush?.();
      } else if (!res.write(value)) {
        await drainOrClose(res);
      }
    }
  } finally {
    res.off('close', onClose);
    await reader.cancel().catch(() => {});
    if (!res.destroyed) res.end();
  }
}

/** 'drain' never comes to a connection that closed: wait for either. */
function drainOrClose(res: ServerResponse): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
