// The proxy's data (bindings the importer writes, credentials, options), apart from the code that uses it.
import type { AuthPrincipal } from '../core/principal.js';
import type { RetryPolicy } from './http-retry.js';

export interface HttpParamBinding {
  /** The tool argument that holds the value. */
  readonly arg: string;
  /** The name on the wire (path template variable, query key, header or cookie name). */
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  /** Query serialisation (OpenAPI `style`); absent: form. */
  readonly style?: 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
  /** Absent: true for form, false for the others (OpenAPI's defaults). */
  readonly explode?: boolean;
  /** `application/json`: the value as one JSON text under the name (OpenAPI 3 `content` on a parameter); style and explode do not apply. */
  readonly contentType?: string;
}

export interface HttpBinding {
  readonly method: string;
  /** The OpenAPI path template, e.g. `/pets/{petId}`. */
  readonly path: string;
  readonly params: readonly HttpParamBinding[];
  /** `files`: multipart fields that hold base64 bytes (sent as file parts). */
  readonly body?: { readonly arg: string; readonly contentType: string; readonly files?: readonly string[] };
  /**
   * The configured schemes this operation sends, by their `env` (OpenAPI's operation-level `security`
   * overrides the global one); `[]`: none. Absent: every configured scheme.
   */
  readonly security?: readonly string[];
  /** The tool has an output schema: JSON answers go to structuredContent. */
  readonly output: boolean;
}

/** The parts of an upstream answer the proxy reads: a fetch `Response`, or node:http's answer (http-node-send.ts). */
export interface UpstreamAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  /** Read by name only: fetch's `Headers`, or a view of node:http's raw lines with the same `get`. */
  readonly headers: { get(name: string): string | null };
}

/** Upstream credentials, each read from an environment variable at call time. */
export type HttpAuth =
  | { readonly type: 'apiKey'; readonly in: 'header' | 'query' | 'cookie'; readonly name: string; readonly env: string }
  | { readonly type: 'bearer'; readonly env: string }
  | { readonly type: 'basic'; readonly env: string }
  /** Client credentials with `<env>_CLIENT_ID` / `<env>_CLIENT_SECRET` (`<env>_TOKEN_URL`, `<env>_SCOPE` optional), else the token in `<env>`. */
  | { readonly type: 'oauth2'; readonly tokenUrl: string; readonly env: string };

/** What the `upstreamToken` hook is told about one call. */
export interface UpstreamTokenRequest {
  readonly scheme: HttpAuth;
  readonly operation: { readonly method: string; readonly path: string };
  /** The verified MCP caller and the token it presented: the subject token of an RFC 8693 exchange. */
  readonly caller: { readonly principal?: AuthPrincipal; readonly token?: string };
  /** The upstream refused the previous token (401): do not answer from a cache. */
  readonly refresh: boolean;
}

export interface HttpProxyOptions extends RetryPolicy {
  readonly baseUrl: string;
  readonly auth?: readonly HttpAuth[];
  /** Answers larger than this are refused (default 8 MiB). */
  readonly maxBytes?: number;
  readonly fetch?: typeof fetch;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * A token for a bearer or OAuth 2 scheme chosen per call, e.g. from an RFC 8693 token exchange of the
   * caller's token at the upstream's authorization server. `undefined`: the configured credential.
   */
  readonly upstreamToken?: (request: UpstreamTokenRequest) => Promise<string | undefined> | string | undefined;
}

/** What a proxy handler reads from the tool context. */
export interface ProxyCallContext {
  readonly signal?: AbortSignal;
  readonly auth?: AuthPrincipal;
  readonly httpRequest?: Request;
}
