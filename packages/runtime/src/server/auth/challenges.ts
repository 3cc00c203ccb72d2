// The answers of the bearer gate when it refuses a request (RFC 6750 §3, RFC 9728 §5.1): each carries a
// `WWW-Authenticate: Bearer …` challenge naming the Protected Resource Metadata and, where it helps the
// client, the scopes to ask for. Bodies are OAuth error JSON.
import { bearerAuthChallengeResponse, getOAuthProtectedResourceMetadataUrl, OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';

export interface Challenges {
  /** The Protected Resource Metadata URL of a resource identifier. */
  metadataUrl(resource: string): string;
  /** 401 without `error=`: the request carried no bearer credentials at all (RFC 6750 §3.1). */
  unauthenticated(resource: string): Response;
  /** 401 invalid_token. */
  invalid(resource: string, description: string): Response;
  /** 400 invalid_request: the Authorization header is ambiguous. */
  malformed(resource: string, description: string): Response;
  /** 403 insufficient_scope, naming every scope the operation needs. */
  insufficient(resource: string, scopes: readonly string[]): Response;
  /** 503: the authorization server (metadata or keys) cannot be reached. */
  unavailable(): Response;
}

/** `challengeScopes`: what a client should ask for first (the required scopes, else every declared one). */
export function challenges(challengeScopes: readonly string[]): Challenges {
  const metadataUrl = (resource: string) => getOAuthProtectedResourceMetadataUrl(new URL(resource));
  return {
    metadataUrl,
    unauthenticated(resource) {
      const params = [`resource_metadata="${quoted(metadataUrl(resource))}"`, ...(challengeScopes.length > 0 ? [`scope="${quoted(challengeScopes.join(' '))}"`] : [])];
      return Response.json({ error: 'unauthorized', error_description: 'Authorization required' }, { status: 401, headers: { 'www-authenticate': `Bearer ${params.join(', ')}` } });
    },
    invalid: (resource, description) =>
      bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InvalidToken, description), { requiredScopes: [...challengeScopes], resourceMetadataUrl: metadataUrl(resource) }),
    malformed(resource, description) {
      const challenge = `Bearer error="invalid_request", error_description="${quoted(description)}", resource_metadata="${quoted(metadataUrl(resource))}"`;
      return Response.json({ error: 'invalid_request', error_description: description }, { status: 400, headers: { 'www-authenticate': challenge } });
    },
    insufficient: (resource, scopes) =>
      bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InsufficientScope, 'The token lacks a scope this request needs'), { requiredScopes: [...scopes], resourceMetadataUrl: metadataUrl(resource) }),
    unavailable: () =>
      Response.json({ error: 'temporarily_unavailable', error_description: 'The authorization server cannot be reached; try again later' }, { status: 503, headers: { 'retry-after': '5' } }),
  };
}

/** RFC 9110 quoted-string content: escape `\` and `"`, drop what a header cannot carry. */
function quoted(value: string): string {
  return value.replace(/[\\"]/g, '\\$&').replace(/[^\x20-\x7E]/g, ' ');
}
