// A TCP proxy that holds every chunk `delayMs` before forwarding it, both ways and in order: a far-away
// server (Redis across a slow link) made deterministic on loopback.
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';

export interface SlowProxy {
  readonly port: number;
  close(): Promise<void>;
}

export async function startSlowProxy(targetPort: number, delayMs: number): Promise<SlowProxy> {
  const sockets = new Set<Socket>();
  const forward = (from: Socket, to: Socket) => from.on('data', (chunk: Buffer) => void setTimeout(() => to.destroyed || to.write(chunk), delayMs));
  const server = createServer((client) => {
    const origin = createConnection({ host: '127.0.0.1', port: targetPort });
    for (const s of [client, origin]) {
      sockets.add(s);
      s.on('error', () => {}).on('close', () => setTimeout(() => (s === client ? origin : client).destroy(), delayMs));
    }
    forward(client, origin);
    forward(origin, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
