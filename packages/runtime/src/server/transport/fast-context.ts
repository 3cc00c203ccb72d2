// The ctx a tool handler gets on the fast path: what create-server.ts reads of the SDK's ServerContext,
// built from the parsed message and node's request without a Web Request (built only if read).
import type { IncomingHttpHeaders } from 'node:http';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { Authenticated } from '../auth/auth.js';
import { CANCEL, type Cancel } from '../core/cancel.js';

/** What the context reads of the fast path's request. */
export interface ContextSource {
  readonly headers: IncomingHttpHeaders;
  readonly signal: AbortSignal;
  readonly cancel?: Cancel;
  toRequest(): Request;
}

/** What the tool handler's ctx is built from (create-server.ts reads only these members). */
export function contextFor(id: string | number, meta: Record<string, unknown>, request: ContextSource, auth: Authenticated | undefined): ServerContext {
  return { mcpReq: new FastMcpReq(id, meta, request), http: new FastHttp(request, auth) } as unknown as ServerContext;
}

// Classes, not literals with getters (V8 keeps a literal's accessor in old space and with it the request:
// docs/layout.md, "Per-request objects").
class FastMcpReq {
  readonly _meta: Record<string, unknown>;
  readonly envelope: Record<string, unknown>;
  readonly inputResponses = undefined;
  readonly requestState = noState;
  readonly notify = noNotify;
  constructor(
    readonly id: string | number,
    meta: Record<string, unknown>,
    private readonly request: ContextSource,
  ) {
    this._meta = meta;
    this.envelope = meta;
  }
  /** Read only by a handler that uses ctx.signal (see node-http.ts). */
  get signal(): AbortSignal {
    return this.request.signal;
  }
  /** The request's cancellation without its signal (a proxied call's upstream request listens here). */
  [CANCEL](): Cancel | undefined {
    return this.request.cancel;
  }
}

class FastHttp {
  readonly authInfo: Authenticated['authInfo'] | undefined;
  /** The headers as node read them (telemetry reads traceparent here without building a Web Request). */
  readonly nodeHeaders: IncomingHttpHeaders;
  private web: Request | undefined;
  constructor(
    private readonly request: ContextSource,
    auth: Authenticated | undefined,
  ) {
    this.authInfo = auth?.authInfo;
    this.nodeHeaders = request.headers;
  }
  /** Built only if a handler reads ctx.httpRequest. */
  get req(): Request {
    return (this.web ??= this.request.toRequest());
  }
}

const noState = (): undefined => undefined;
const noNotify = async (): Promise<void> => {};
