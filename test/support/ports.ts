import { createServer } from 'node:net';

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });
}

/** Poll `probe` every 50 ms until it returns true (a throw counts as not yet), for up to `ms`. */
export async function waitFor(probe: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      if (await probe()) return;
    } catch {
      // not yet
    }
    if (Date.now() > until) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
