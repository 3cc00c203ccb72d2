// A scripted stand-in for the OpenAI API on 127.0.0.1, for the real `openai` client: each POST to
// /v1/chat/completions or /v1/responses is recorded and answered with the next scripted body for that path.
import type { Server } from 'node:http';
import { listenLocal, readBody, send, stopLocal } from './fake-oauth.js';

export class FakeOpenAi {
  readonly requests: { path: string; body: Record<string, unknown> }[] = [];
  #server: Server | undefined;
  readonly #script: Map<string, unknown[]>;

  /** `script`: path (e.g. `/v1/chat/completions`) → the bodies to answer with, in order. */
  constructor(script: Record<string, unknown[]>) {
    this.#script = new Map(Object.entries(script).map(([path, bodies]) => [path, [...bodies]]));
  }

  async start(): Promise<string> {
    this.#server = await listenLocal((req, res) => {
      void readBody(req).then((text) => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        this.requests.push({ path, body: JSON.parse(text) as Record<string, unknown> });
        const next = this.#script.get(path)?.shift();
        send(res, next === undefined ? 404 : 200, next ?? { error: { message: `nothing scripted for ${path}`, type: 'invalid_request_error' } });
      });
    });
    return `http://127.0.0.1:${(this.#server.address() as { port: number }).port}/v1`;
  }

  stop(): Promise<void> {
    return stopLocal(this.#server);
  }
}
