import type { AuthPrincipal } from './principal.js';
import type { ElicitSpec } from './definition.js';
import { inputRequiredReply, type InputRequiredReply } from './replies.js';

export type ElicitResponse<C> =
  | { readonly action: 'accept'; readonly content: C }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** One input request a tool declared under `elicit:` in its spec. */
export interface Elicitation<C> {
  /** The client's answer on a retried call; `undefined` on the first call. */
  readonly response: ElicitResponse<C> | undefined;
  /** Return this from the handler to ask (the call is retried with the answer). */
  ask(overrides?: { readonly message?: string; readonly url?: string; readonly requestState?: string }): InputRequiredReply;
}

/** An input request of any kind the 2026-07-28 revision allows inside an InputRequiredResult. */
export type InputRequest =
  | { readonly method: 'elicitation/create'; readonly params: Readonly<Record<string, unknown>> }
  | { readonly method: 'sampling/createMessage'; readonly params: Readonly<Record<string, unknown>> }
  | { readonly method: 'roots/list'; readonly params?: Readonly<Record<string, unknown>> };

export interface ChangeNotifier {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
  resourceUpdated(uri: string): void;
}

export interface RequestContext {
  /** Aborts when the client cancels (HTTP: closes the stream; stdio: notifications/cancelled) or on timeout. */
  readonly signal: AbortSignal;
  readonly requestId: string | number;
  /** The request's `_meta` without the reserved `io.modelcontextprotocol/*` keys. */
  readonly meta: Readonly<Record<string, unknown>>;
  /** The incoming HTTP request (Streamable HTTP only). */
  readonly httpRequest?: Request | undefined;
  /**
   * The verified caller (subject, scopes, client id, claims) on a server whose spec declares `auth:`,
   * over HTTP. Absent over stdio, where credentials come from the environment.
   */
  readonly auth?: AuthPrincipal;
  /** What the client declared on this request (`io.modelcontextprotocol/clientCapabilities`). */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /**
   * Tell open `subscriptions/listen` streams that something changed (Streamable HTTP; the server must
   * announce the matching `listChanged`/`subscribe` capability).
   */
  readonly notify: ChangeNotifier;
  /** The raw `inputResponses` of a retried request (untrusted client data), by input-request key. */
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
  /**
   * The `requestState` this handler returned on the previous round, if the call is a retry. The runtime
   * seals it on the way out and verifies it on the way back (tampered, expired, or issued for another
   * tool or other arguments: the request is refused before the handler runs), so it is what you wrote.
   */
  readonly requestState: string | undefined;
  /**
   * Return this to ask the client for input of any kind (elicitation, sampling, roots) — the generic
   * form of `ctx.elicit.<key>.ask()`. The SDK refuses requests the client has no capability for (-32021).
   */
  inputRequired(requests: Readonly<Record<string, InputRequest>>, requestState?: string): InputRequiredReply;
}

export interface ToolContext<E extends Record<string, unknown> = Record<string, never>> extends RequestContext {
  /** Report progress; sent only when the client asked for it (`progressToken`). Values must increase. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  readonly elicit: { readonly [K in keyof E]: Elicitation<E[K]> };
}

export function buildElicit(specs: Readonly<Record<string, ElicitSpec>>, responses: Record<string, unknown> | undefined): Record<string, Elicitation<unknown>> {
  const out: Record<string, Elicitation<unknown>> = {};
  for (const [key, spec] of Object.entries(specs)) {
    // Own properties only: a key such as `__proto__` or `constructor` must not read inherited members.
    const raw = (responses !== undefined && Object.hasOwn(responses, key) ? responses[key] : undefined) as { action?: unknown; content?: unknown } | undefined;
    const response: ElicitResponse<unknown> | undefined =
      raw?.action === 'accept' ? { action: 'accept', content: raw.content ?? {} }
      : raw?.action === 'decline' ? { action: 'decline' }
      : raw?.action === 'cancel' ? { action: 'cancel' }
      : undefined;
    const elicitation: Elicitation<unknown> = {
      response,
      ask(overrides = {}) {
        const params: Record<string, unknown> =
          spec.mode === 'url'
            ? { mode: 'url', message: overrides.message ?? spec.message, url: overrides.url ?? spec.url ?? '' }
            : { mode: 'form', message: overrides.message ?? spec.message, requestedSchema: spec.requestedSchema };
        return inputRequiredReply({ [key]: { method: 'elicitation/create', params } }, overrides.requestState);
      },
    };
    // Defined, not assigned: assigning to `__proto__` would set the object's prototype.
    Object.defineProperty(out, key, { value: elicitation, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
