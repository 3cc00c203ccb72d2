// Who made a request, as handlers see it in `ctx.auth`: core, so the request context needs no auth code.
/** The verified caller, as handlers see it in `ctx.auth`. */
export interface AuthPrincipal {
  /** `sub`: the user (or client, for client-credentials tokens) the token speaks for. */
  readonly subject: string | undefined;
  /** `client_id` (RFC 9068; `azp` as a fallback): the OAuth client that obtained the token. */
  readonly clientId: string | undefined;
  readonly scopes: readonly string[];
  /** Every claim of the token (or what an introspection / API-key verifier reports). */
  readonly claims: Readonly<Record<string, unknown>>;
  /** Expiry in seconds since the epoch, when known. */
  readonly expiresAt: number | undefined;
}
