// mcpgen's OAuth providers for the common cases; any other SDK OAuthClientProvider works as well.
// - clientCredentials / privateKeyJwt: machine-to-machine (the SDK's ClientCredentialsProvider and
//   PrivateKeyJwtProvider; client_secret_post added, which the SDK's provider cannot be told to use).
// - authorizationCode: a user authorizes in a browser. Pre-registered client, Client ID Metadata Document
//   (used when the authorization server advertises it) or dynamic registration, in that order (the SDK's
//   auth() picks); credentials and tokens are kept per authorization server, so a server that moves to
//   another authorization server gets a fresh registration there and never sees the first one's.
//   `authorize(url)` shows the URL to the user and resolves with where the authorization server
//   redirected back; the client then redeems the code and carries on with the request that needed it.
import { ClientCredentialsProvider, DpopSession, PrivateKeyJwtProvider, validateClientMetadataUrl, type OAuthClientInformationContext, type OAuthClientMetadata, type OAuthClientProvider, type OAuthDiscoveryState, type StoredOAuthClientInformation, type StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { AuthorizationResponseSource } from './oauth-fetch.js';

export interface ClientCredentialsOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  /** How the secret reaches the token endpoint (default `client_secret_basic`). */
  readonly authMethod?: 'client_secret_basic' | 'client_secret_post';
  readonly scope?: string;
  /** The authorization server these credentials belong to: they are sent to no other. */
  readonly expectedIssuer?: string;
}

/** OAuth client credentials grant with a client secret. */
export function clientCredentials(options: ClientCredentialsOptions): OAuthClientProvider {
  const init = {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    ...(options.scope !== undefined ? { scope: options.scope } : {}),
    ...(options.expectedIssuer !== undefined ? { expectedIssuer: options.expectedIssuer } : {}),
  };
  return options.authMethod === 'client_secret_post' ? new SecretPostClientCredentials(init) : new ClientCredentialsProvider(init);
}

/** auth() takes the method from the client information when the authorization server supports it. */
class SecretPostClientCredentials extends ClientCredentialsProvider {
  override clientInformation(): StoredOAuthClientInformation {
    return { ...super.clientInformation(), token_endpoint_auth_method: 'client_secret_post' } as StoredOAuthClientInformation;
  }
  override get clientMetadata(): OAuthClientMetadata {
    return { ...super.clientMetadata, token_endpoint_auth_method: 'client_secret_post' };
  }
}

export interface PrivateKeyJwtOptions {
  readonly clientId: string;
  /** PEM string, raw key bytes, or a JWK. */
  readonly privateKey: string | Uint8Array | Record<string, unknown>;
  /** Signing algorithm, e.g. `ES256` or `RS256`. */
  readonly algorithm: string;
  readonly scope?: string;
  readonly expectedIssuer?: string;
}

/** OAuth client credentials grant authenticated with a signed JWT (RFC 7523 §2.2, `private_key_jwt`). */
export function privateKeyJwt(options: PrivateKeyJwtOptions): OAuthClientProvider {
  return new PrivateKeyJwtProvider({
    clientId: options.clientId,
    privateKey: options.privateKey,
    algorithm: options.algorithm,
    ...(options.scope !== undefined ? { scope: options.scope } : {}),
    ...(options.expectedIssuer !== undefined ? { expectedIssuer: options.expectedIssuer } : {}),
  });
}

export interface AuthorizationCodeOptions {
  /** Where the authorization server sends the user back (registered with it; usually a loopback URL for native apps). */
  readonly redirectUrl: string | URL;
  /**
   * Take the user to `url` (open a browser) and resolve with the redirect that came back to
   * `redirectUrl`: the full callback URL, or its query.
   */
  readonly authorize: (url: URL) => Promise<string | URL | URLSearchParams>;
  /** A pre-registered client: used as is, with the authorization server named by `issuer` if given, else the first one it is used with. */
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly issuer?: string;
  /** An https URL serving this client's metadata document (Client ID Metadata Document), used where the authorization server supports it. */
  readonly clientMetadataUrl?: string;
  /** Metadata for dynamic registration and the metadata document (`client_name`, …). */
  readonly clientMetadata?: Partial<OAuthClientMetadata>;
  /** Ask for a refresh token (`refresh_token` grant, `offline_access` where the authorization server lists it). Default true. */
  readonly refreshTokens?: boolean;
  /** Sender-constrained tokens (DPoP, RFC 9449): a key pair for this session signs a proof for every request. */
  readonly dpop?: boolean;
}

export type AuthorizationCodeProvider = OAuthClientProvider & AuthorizationResponseSource;

/** Authorization code grant with PKCE, the user authorizing in a browser; in-memory storage for one client session. */
export function authorizationCode(options: AuthorizationCodeOptions): AuthorizationCodeProvider {
  return new InMemoryAuthorizationCodeProvider(options);
}

class InMemoryAuthorizationCodeProvider implements OAuthClientProvider, AuthorizationResponseSource {
  readonly #options: AuthorizationCodeOptions;
  readonly #clients = new Map<string, StoredOAuthClientInformation>();
  readonly #tokens = new Map<string, StoredOAuthTokens>();
  #latestTokens: StoredOAuthTokens | undefined;
  #preRegisteredIssuer: string | undefined;
  #verifier: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  #response: Promise<URLSearchParams> | undefined;
  #dpop: Promise<DpopSession> | undefined;
  declare readonly clientMetadataUrl?: string;

  constructor(options: AuthorizationCodeOptions) {
    validateClientMetadataUrl(options.clientMetadataUrl);
    this.#options = options;
    if (options.clientMetadataUrl !== undefined) Object.defineProperty(this, 'clientMetadataUrl', { value: options.clientMetadataUrl, enumerable: true });
    this.#preRegisteredIssuer = options.issuer;
  }

  dpop(): Promise<DpopSession> | undefined {
    if (this.#options.dpop !== true) return undefined;
    this.#dpop ??= DpopSession.create();
    return this.#dpop;
  }

  get redirectUrl(): string {
    return String(this.#options.redirectUrl);
  }

  get clientMetadata(): OAuthClientMetadata {
    const refresh = this.#options.refreshTokens !== false;
    return {
      client_name: 'mcpgen client',
      ...this.#options.clientMetadata,
      redirect_uris: [this.redirectUrl],
      grant_types: refresh ? ['authorization_code', 'refresh_token'] : ['authorization_code'],
      response_types: ['code'],
    } as OAuthClientMetadata;
  }

  state(): string {
    // Web Crypto, so the client runtime also runs outside Node.
    return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    if (ctx === undefined) return undefined;
    const saved = this.#clients.get(ctx.issuer);
    if (saved !== undefined) return saved;
    const { clientId, clientSecret } = this.#options;
    // A pre-registered client belongs to one authorization server: the named one, or the first it meets.
    if (clientId !== undefined && (this.#preRegisteredIssuer === undefined || this.#preRegisteredIssuer === ctx.issuer)) {
      this.#preRegisteredIssuer = ctx.issuer;
      return { client_id: clientId, ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}), redirect_uris: [this.redirectUrl], issuer: ctx.issuer } as StoredOAuthClientInformation;
    }
    return undefined;
  }

  saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): void {
    const issuer = ctx?.issuer ?? info.issuer;
    if (issuer !== undefined) this.#clients.set(issuer, info);
  }

  tokens(ctx?: OAuthClientInformationContext): StoredOAuthTokens | undefined {
    return ctx === undefined ? this.#latestTokens : this.#tokens.get(ctx.issuer);
  }

  saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): void {
    const issuer = ctx?.issuer ?? tokens.issuer;
    if (issuer !== undefined) this.#tokens.set(issuer, tokens);
    this.#latestTokens = tokens;
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    if (this.#verifier === undefined) throw new Error('no PKCE code verifier: no authorization is in progress');
    return this.#verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    const issuer = this.#discovery?.authorizationServerMetadata?.issuer ?? this.#discovery?.authorizationServerUrl;
    if (scope === 'all' || scope === 'client') {
      if (issuer !== undefined) this.#clients.delete(issuer);
      else this.#clients.clear();
    }
    if (scope === 'all' || scope === 'tokens') {
      if (issuer !== undefined) this.#tokens.delete(issuer);
      else this.#tokens.clear();
      this.#latestTokens = undefined;
    }
    if (scope === 'all' || scope === 'verifier') this.#verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.#discovery = undefined;
  }

  redirectToAuthorization(url: URL): void {
    const expected = url.searchParams.get('state') ?? undefined;
    const response = Promise.resolve(this.#options.authorize(url)).then((answer) => {
      const params = answer instanceof URLSearchParams ? answer : new URL(String(answer), this.redirectUrl).searchParams;
      // The response must answer the request this client made (CSRF, OAuth 2.1 §7.12).
      if (params.get('state') !== expected) throw new Error('the authorization response does not carry the state this client sent');
      return params;
    });
    response.catch(() => undefined); // surfaced by authorizationResponse()
    this.#response = response;
  }

  authorizationResponse(): Promise<URLSearchParams> {
    const response = this.#response;
    this.#response = undefined;
    return response ?? Promise.reject(new Error('no authorization is in progress'));
  }
}
