// Per-operation security of proxied calls, read back at an upstream on 127.0.0.1: a binding's
// `security` picks which configured schemes are sent, `[]` sends none, absent sends them all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callUpstream, type HttpAuth, type HttpBinding } from '../../packages/runtime/src/server/index.js';
import { startMockUpstream, type MockUpstream } from '../support/mock-upstream.js';

let upstream: MockUpstream;
beforeAll(async () => (upstream = await startMockUpstream()));
afterAll(() => upstream.stop());

const auth: HttpAuth[] = [
  { type: 'apiKey', in: 'header', name: 'x-api-key', env: 'API_KEY' },
  { type: 'bearer', env: 'API_TOKEN' },
];
const env = { API_KEY: 'k-1', API_TOKEN: 't-1' };

async function headersSent(security?: string[]): Promise<{ key: string | undefined; authorization: string | undefined }> {
  const binding: HttpBinding = { method: 'GET', path: '/x', params: [], output: false, ...(security !== undefined ? { security } : {}) };
  await callUpstream(binding, {}, { baseUrl: upstream.url, auth, env });
  const h = upstream.requests.at(-1)!.headers;
  return { key: h['x-api-key'] as string | undefined, authorization: h.authorization };
}

describe('per-operation security', () => {
  it('absent: every configured scheme', async () => {
    expect(await headersSent()).toEqual({ key: 'k-1', authorization: 'Bearer t-1' });
  });
  it("the operation's schemes only", async () => {
    expect(await headersSent(['API_KEY'])).toEqual({ key: 'k-1', authorization: undefined });
    expect(await headersSent(['API_TOKEN'])).toEqual({ key: undefined, authorization: 'Bearer t-1' });
  });
  it('security: [] sends no credentials', async () => {
    expect(await headersSent([])).toEqual({ key: undefined, authorization: undefined });
  });
});
