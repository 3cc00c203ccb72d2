// Issue 24 item 10: a generated client pointed at a port nobody listens on said only "Version negotiation
// probe failed: fetch failed". It must name the URL and the cause (connection refused).
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { WeatherClient as WeatherClientType } from '../../generated/weather/client.js';
import { importCompiled } from '../support/servers.js';

/** A loopback port that was free a moment ago and has no listener now. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a client pointed at a dead port', () => {
  it('names the URL and the cause', async () => {
    const { WeatherClient } = await importCompiled<{ WeatherClient: typeof WeatherClientType }>('weather', 'client.js');
    const url = `http://127.0.0.1:${await deadPort()}/mcp`;
    const failure = await WeatherClient.connect({ url }).then(() => undefined, (e: unknown) => e as Error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure!.message).toContain(url);
    expect(failure!.message).toMatch(/ECONNREFUSED/);
    expect(failure!.message).toMatch(/^cannot connect to /);
    expect(failure!.cause, 'the SDK error stays reachable').toBeInstanceOf(Error);
  });
});
