// Answer-size bound of the server runtime, through the fetch face (no sockets).
import { describe, expect, it } from 'vitest';
import type { definition as WeatherDefinition } from '../../generated/weather/definition.js';
import { createMcpgenServer } from '../../packages/runtime/src/server/index.js';
import { exceedsJsonSize } from '../../packages/runtime/src/server/core/response-size.js';
import { importCompiled } from '../support/servers.js';
import { schemaErrors } from '../support/wire.js';
import { mcpRequest } from '../support/mcp-request.js';

const { definition } = await importCompiled<{ definition: typeof WeatherDefinition }>('weather', 'definition.js');

async function call(handler: { fetch: (r: Request) => Promise<Response> }, name: string, args: Record<string, unknown>) {
  return JSON.parse(await (await handler.fetch(mcpRequest('tools/call', { name, arguments: args }))).text());
}

describe('maxResponseBytes', () => {
  const handlers = {
    getForecast: ({ city }: { city: string }) => ({ city: city === 'huge' ? 'x'.repeat(3_000_000) : city, temperature: 1, conditions: 'sunny' as const }),
    getAlerts: () => ({ alerts: [] }),
    add: ({ a, b }: { a: number; b: number }) => ({ sum: a + b }),
  };

  it('answers a tool result over the bound with an isError result, and logs it', async () => {
    const errors: unknown[] = [];
    const server = createMcpgenServer(definition, handlers, { maxResponseBytes: 1_000_000, onHandlerError: (e) => errors.push(e) });
    const big = await call(server.http(), 'get_forecast', { city: 'huge' });
    expect(big.result.isError).toBe(true);
    expect(big.result.content[0].text).toBe('Tool get_forecast produced a result larger than this server sends (1000000 bytes)');
    expect(schemaErrors('CallToolResultResponse', big)).toEqual([]);
    expect(errors).toHaveLength(1);
    const small = await call(server.http(), 'get_forecast', { city: 'Paris' });
    expect(small.result.structuredContent.city).toBe('Paris');
  });

  it('sends the same result when no bound is set', async () => {
    const server = createMcpgenServer(definition, handlers, {});
    const big = await call(server.http(), 'get_forecast', { city: 'huge' });
    expect(big.result.structuredContent.city).toHaveLength(3_000_000);
  });
});

describe('exceedsJsonSize', () => {
  it('measures JSON text roughly and stops on cycles', () => {
    const value = { content: [{ type: 'text', text: 'a'.repeat(1000) }], nested: { list: [1, 2, true, null] } };
    const exact = JSON.stringify(value).length;
    expect(exceedsJsonSize(value, exact * 1.2)).toBe(false);
    expect(exceedsJsonSize(value, exact * 0.8)).toBe(true);
    const cyclic: Record<string, unknown> = { a: 'x' };
    cyclic.self = cyclic;
    expect(exceedsJsonSize(cyclic, 10_000)).toBe(true);
  });
});
