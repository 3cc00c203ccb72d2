// OAuth 2.1 for the generated clients (MCP 2026-07-28 authorization). The SDK's auth() does the protocol:
// protected-resource and authorization-server discovery (with the RFC 8414 issuer echo check), client
// identity (pre-registered, Client ID Metadata Document, dynamic registration), PKCE S256, the RFC 8707
// `resource` parameter, the RFC 9207 `iss` check, scope selection, refresh, and credentials stamped with
// their authorization server. What it leaves to the host, and this fetch wrapper adds:
// - finishing an authorization-code flow in place: when auth() answers 'REDIRECT', a provider that can
//   hand back the authorization response (AuthorizationResponseSource) gets its code redeemed and the
//   request is sent again, instead of failing the request;
// - a 401 on a request that carried a token drops the cached discovery, so a server that moved to another
//   authorization server is rediscovered (the SDK never invalidates 'discovery' itself);
// - 403 insufficient_scope step-up with the union of the scopes asked before, granted, and challenged,
//   forcing a fresh authorization when refresh cannot widen the grant, bounded per request;
// - one authorization flow at a time: requests that fail together wait for the flow in progress.
// The SDK transport's own authProvider path does 401/403 too, but fails the request on 'REDIRECT'.
import { auth, computeScopeUnion, withDpopFromProvider, extractWWWAuthenticateParams, InsufficientScopeError, isStrictScopeSuperset, UnauthorizedError, validateAuthorizationResponseIssuer, type FetchLike, type OAuthClientProvider } from '@modelcontextprotocol/client';

/** A provider that obtains the authorization response itself (its redirectToAuthorization waits for the callback). */
export interface AuthorizationResponseSource {
  /** The query of the redirect back from the authorization server for the flow just started, `state` already checked. */
  authorizationResponse(): Promise<URLSearchParams>;
}

export interface ClientAuthOptions {
  readonly provider: OAuthClientProvider;
  /** Step-up re-authorizations after `403 insufficient_scope`, per request (default 1). */
  readonly maxStepUpRetries?: number;
}

function hasAuthorizationResponse(provider: OAuthClientProvider): provider is OAuthClientProvider & AuthorizationResponseSource {
  return typeof (provider as Partial<AuthorizationResponseSource>).authorizationResponse === 'function';
}

/**
 * A fetch for the MCP server's URL that sends the provider's access token and answers 401 and
 * `403 insufficient_scope` through the SDK's auth(). `authFetch` makes the requests to the
 * authorization server (it never carries the MCP server's token).
 */
export function oauthFetch(base: FetchLike, authFetch: FetchLike, serverUrl: URL, options: ClientAuthOptions): FetchLike {
  const { provider } = options;
  // A provider with a DPoP session (RFC 9449): the SDK presents DPoP-bound tokens with a fresh proof and
  // answers the server's nonce challenges.
  const next = provider.dpop ? withDpopFromProvider(provider)(base) : base;
  const maxStepUps = Math.max(0, options.maxStepUpRetries ?? 1);
  let resourceMetadataUrl: URL | undefined;
  let requestedScope: string | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  // One flow at a time; a request whose token was already replaced while it waited only retries.
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };

  const authorize = async (scope: string | undefined, forceReauthorization: boolean): Promise<void> => {
    const common = { serverUrl, fetchFn: authFetch, ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope !== undefined ? { scope } : {}) };
    let result = await auth(provider, { ...common, forceReauthorization });
    if (result === 'REDIRECT') {
      if (!hasAuthorizationResponse(provider)) {
        throw new UnauthorizedError('authorization needed: the provider sent the user to the authorization server; redeem the code with finishAuthorization() and retry');
      }
      const { code, iss } = await readAuthorizationResponse(provider, await provider.authorizationResponse());
      result = await auth(provider, { ...common, authorizationCode: code, ...(iss !== undefined ? { iss } : {}) });
    }
    if (result !== 'AUTHORIZED') throw new UnauthorizedError(`authorization failed (${result})`);
    requestedScope = scope;
  };

  return async (input, init) => {
    let stepUps = 0;
    let reauthorized = false;
    for (;;) {
      const token = (await provider.tokens())?.access_token;
      const headers = new Headers(init?.headers);
      if (token !== undefined) headers.set('Authorization', `Bearer ${token}`);
      const response = await next(input, { ...init, headers });
      if (response.status !== 401 && response.status !== 403) return response;
      const challenge = extractWWWAuthenticateParams(response);
      if (response.status === 403 && challenge.error !== 'insufficient_scope') return response;
      await response.body?.cancel().catch(() => undefined);
      if (challenge.resourceMetadataUrl) resourceMetadataUrl = challenge.resourceMetadataUrl;

      if (response.status === 401) {
        if (reauthorized) throw new UnauthorizedError(`the server refused the new access token (401) for ${String(input)}`);
        reauthorized = true;
        await exclusive(async () => {
          const current = (await provider.tokens())?.access_token;
          if (current !== undefined && current !== token) return; // another request already replaced it
          // The token no longer authenticates: the server may have moved to another authorization server.
          if (token !== undefined) await provider.invalidateCredentials?.('discovery');
          await authorize(challenge.scope, false);
        });
        continue;
      }

      if (stepUps >= maxStepUps) {
        throw new InsufficientScopeError({
          ...(challenge.scope !== undefined ? { requiredScope: challenge.scope } : {}),
          ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
          ...(challenge.errorDescription !== undefined ? { errorDescription: challenge.errorDescription } : {}),
        });
      }
      stepUps++;
      await exclusive(async () => {
        const tokens = await provider.tokens();
        if (tokens !== undefined && tokens.access_token !== token) return;
        // Keep what was asked and granted before: a step-up must not lose earlier permissions.
        const union = computeScopeUnion(requestedScope, tokens?.scope, challenge.scope);
        await authorize(union, isStrictScopeSuperset(union, tokens?.scope));
      });
    }
  };
}

/** `code` and `iss` of an authorization response; an error response is reported only once its `iss` checked out (RFC 9207 §2.4). */
async function readAuthorizationResponse(provider: OAuthClientProvider, params: URLSearchParams): Promise<{ code: string; iss: string | undefined }> {
  const code = params.get('code');
  const iss = params.get('iss') ?? undefined;
  if (code !== null && code !== '') return { code, iss };
  const metadata = (await provider.discoveryState?.())?.authorizationServerMetadata;
  validateAuthorizationResponseIssuer({ iss, expectedIssuer: metadata?.issuer, issParameterSupported: metadata?.authorization_response_iss_parameter_supported === true });
  const error = params.get('error');
  throw new UnauthorizedError(error !== null ? `the authorization server refused: ${error}${params.has('error_description') ? ` (${params.get('error_description')})` : ''}` : 'the authorization response carries no code');
}

/**
 * For a provider that sends the user away (no AuthorizationResponseSource): redeem the code of the
 * redirect back (`callback`: the callback URL or its query) after the request failed with
 * UnauthorizedError, then connect or call again. `iss` is checked before the code is redeemed; checking
 * `state` against the one the provider sent is the caller's (as with the SDK's finishAuth).
 */
export async function finishAuthorization(provider: OAuthClientProvider, serverUrl: string | URL, callback: string | URL | URLSearchParams, fetchFn?: FetchLike): Promise<void> {
  const params = callback instanceof URLSearchParams ? callback : new URL(String(callback)).searchParams;
  const { code, iss } = await readAuthorizationResponse(provider, params);
  const result = await auth(provider, { serverUrl, authorizationCode: code, ...(iss !== undefined ? { iss } : {}), ...(fetchFn ? { fetchFn } : {}) });
  if (result !== 'AUTHORIZED') throw new UnauthorizedError(`authorization failed (${result})`);
}
