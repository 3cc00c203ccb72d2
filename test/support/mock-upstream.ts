// An HTTP upstream on 127.0.0.1 for the proxy tests: records every request (raw body bytes) and answers
// with what the test's `reply` says (a function of the request and how many came before it).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenLocal, stopLocal } from './fake-oauth.js';

export interface UpstreamRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

export type UpstreamReply = (req: UpstreamRequest, index: number, res: ServerResponse) => void;

export interface MockUpstream {
  readonly url: string;
  readonly requests: UpstreamRequest[];
  reply: UpstreamReply;
  stop(): Promise<void>;
}

export async function startMockUpstream(reply: UpstreamReply = (_r, _i, res) => void res.writeHead(204).end()): Promise<MockUpstream> {
  const requests: UpstreamRequest[] = [];
  const mock: MockUpstream = {
    url: '',
    requests,
    reply,
    stop: () => stopLocal(server),
  };
  const server = await listenLocal((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = { method: req.method!, url: new URL(req.url!, 'http://upstream'), headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(seen);
      mock.reply(seen, requests.length - 1, res);
    });
  });
  (mock as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return mock;
}

/** The multipart body the upstream received, parsed the way a Web server would. */
export function formDataOf(req: UpstreamRequest): Promise<FormData> {
  return new Response(req.body, { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
}
