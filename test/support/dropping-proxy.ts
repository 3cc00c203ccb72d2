// A TCP proxy in front of a server that, when armed, closes a reused client connection as the next
// request starts arriving, without forwarding it: what a client sees when it writes to a keep-alive
// connection the server closed while idle, made deterministic.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface DroppingProxy {
  readonly url: string;
  /** Drop the next request that arrives on a connection which already carried one. */
  armDrop(): void;
  /** Requests dropped so far. */
  readonly dropped: number;
  close(): Promise<void>;
}

export async function startDroppingProxy(target: string): Promise<DroppingProxy> {
  const upstream = new URL(target);
  let armed = false;
  let dropped = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    let requests = 0;
    const origin = createConnection({ host: upstream.hostname, port: Number(upstream.port) });
    sockets.add(origin);
    client.on('data', (chunk: Buffer) => {
      if (chunk.subarray(0, 5).toString('latin1') === 'POST ' && requests++ > 0 && armed) {
        armed = false;
        dropped++;
        client.destroy();
        origin.destroy();
        return;
      }
      origin.write(chunk);
    });
    origin.pipe(client);
    const end = () => {
      client.destroy();
      origin.destroy();
    };
    client.on('error', end).on('close', end);
    origin.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    armDrop: () => {
      armed = true;
    },
    get dropped() {
      return dropped;
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
