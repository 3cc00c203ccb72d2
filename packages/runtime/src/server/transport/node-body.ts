// Reading a node:http request body within a size limit, for node-http.ts: whole (the fast path) or as a
// Web stream (the SDK path), and waiting for the unread rest to arrive before a refusal is written.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';

/** The whole body, or undefined past `max` bytes (the rest is drained, unread). */
export function readAll(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > max) {
        req.off('data', onData);
        req.resume();
        resolve(undefined);
      } else chunks.push(chunk);
    };
    // One chunk (the usual small request) is the body as it is; 'close' after 'end' has nothing to add.
    const whole = () => (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    req.on('data', onData);
    req.once('end', () => resolve(whole()));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.readableEnded) resolve(whole());
    });
  });
}

/** Resolves when the request has been read to its end (or went away), or after `ms`. */
export function ended(req: IncomingMessage, ms: number): Promise<void> {
  if (req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      req.off('end', done);
      req.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    req.once('end', done);
    req.once('close', done);
  });
}

export function limitedBody(req: IncomingMessage, max: number): { stream: ReadableStream<Uint8Array>; exceeded(): boolean } {
  let size = 0;
  let over = false;
  const source = Readable.toWeb(req) as ReadableStream<Uint8Array>;
  const stream = source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > max) {
          over = true;
          controller.error(Object.assign(new Error('body too large'), { code: 'BODY_TOO_LARGE' }));
        } else controller.enqueue(chunk);
      },
    }),
  );
  return { stream, exceeded: () => over };
}
