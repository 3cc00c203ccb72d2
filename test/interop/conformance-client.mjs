// The client the conformance suite drives: `conformance client --command "node this-file"` appends the
// server URL and sets MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT). It is a generic host
// built on the generated clients' base class (@mcpgen/runtime-client): it takes the server's live tool
// definitions, as a host that was not generated for this server would, and exercises what the
// scenario serves.
import { CrossAppAccessProvider, requestJwtAuthorizationGrant } from '@modelcontextprotocol/client';
import { authorizationCode, clientCredentials, McpgenClient, privateKeyJwt } from '@mcpgen/runtime-client';

class HostClient extends McpgenClient {
  constructor() {
    super([]);
  }
  // connectionRetry 'always': the suite's tools are fixtures, and it starts all its clients at once, so on
  // 2 cores a client can stall past the scenario server's 5 s keep-alive and write to a closed connection.
  static async connect(url, auth) {
    const client = new HostClient();
    // timeoutMs 120 s: with authorization, connecting (the server/discover probe) includes a whole OAuth flow.
    await client.open({ url, ...(auth ? { auth } : {}) }, { negotiation: 'auto', connectionRetry: 'always', timeoutMs: 120_000, onElicit: () => ({ action: 'accept', content: { confirmed: true, ok: true, name: 'conformance' } }) }, 'mcpgen-conformance-client');
    return client;
  }
  call(name, args) {
    return this.callTool(name, args);
  }
  read(uri) {
    return this.readResource(uri);
  }
  prompt(name, args) {
    return this.getPrompt(name, args);
  }
}

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
// The suite's authorization servers approve at once: the "browser" follows the authorization URL and
// reads the redirect back (code, iss, state) from its Location.
async function followAuthorization(authorizationUrl) {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (location === null) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  return location;
}
const REDIRECT_URL = 'http://localhost:3000/callback';
// The suite's fixed Client ID Metadata Document URL (its authorization servers do not fetch it).
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';
function authFor(name) {
  if (name === 'auth/client-credentials-basic') return clientCredentials({ clientId: context.client_id, clientSecret: context.client_secret });
  if (name === 'auth/client-credentials-jwt') return privateKeyJwt({ clientId: context.client_id, privateKey: context.private_key_pem, algorithm: context.signing_algorithm ?? 'ES256' });
  if (name === 'auth/enterprise-managed-authorization') {
    // The SDK's Cross-App Access provider: the IdP's ID token → ID-JAG (RFC 8693) → access token (RFC 7523).
    return new CrossAppAccessProvider({
      clientId: context.client_id,
      clientSecret: context.client_secret,
      assertion: async (at) => (await requestJwtAuthorizationGrant({ tokenEndpoint: context.idp_token_endpoint, audience: at.authorizationServerUrl, resource: at.resourceUrl, idToken: context.idp_id_token, clientId: context.idp_client_id, fetchFn: at.fetchFn })).jwtAuthGrant,
    });
  }
  if (name === 'auth/pre-registration') return authorizationCode({ redirectUrl: REDIRECT_URL, authorize: followAuthorization, clientId: context.client_id, clientSecret: context.client_secret, clientMetadata: { client_name: 'mcpgen-conformance-client' } });
  if (name.startsWith('auth/')) return authorizationCode({ redirectUrl: REDIRECT_URL, authorize: followAuthorization, clientMetadataUrl: CIMD_URL, clientMetadata: { client_name: 'mcpgen-conformance-client' }, dpop: name.startsWith('auth/dpop') });
  return undefined;
}
const client = await HostClient.connect(url, authFor(scenario));
const attempt = async (what, fn) => {
  try {
    await fn();
  } catch (e) {
    process.stderr.write(`${what}: ${e instanceof Error ? e.message : String(e)}\n`);
  }
};
try {
  const tools = await client.listAllTools();
  if (scenario === 'json-schema-ref-no-deref') {
    // Listing is the whole scenario: the client must not fetch the schemas' network $refs.
  } else if (scenario === 'json-schema-2020-12-preservation') {
    const focal = tools.find((t) => t.name === 'json_schema_2020_12_tool');
    if (focal) await client.call('json_schema_echo', { schema: focal.inputSchema });
  } else if (Array.isArray(context.toolCalls)) {
    for (const c of context.toolCalls) await attempt(c.name, () => client.call(c.name, c.arguments ?? {}));
  } else {
    for (const t of tools) await attempt(t.name, () => client.call(t.name, t.name === 'add_numbers' ? { a: 2, b: 3 } : {}));
    const caps = client.sdk.getServerCapabilities?.() ?? {};
    if (caps.resources) for (const r of (await client.sdk.listResources()).resources) await attempt(r.uri, () => client.read(r.uri));
    if (caps.prompts) for (const p of (await client.sdk.listPrompts()).prompts) await attempt(p.name, () => client.prompt(p.name, {}));
  }
} finally {
  await client.close();
}
