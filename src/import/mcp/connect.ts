import { EnvironmentError, UsageError } from '../../errors.js';

/** Where the server to import runs: a command mcpgen starts (stdio) or a Streamable HTTP endpoint. */
export type ServerTarget =
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly cwd?: string; readonly env?: Record<string, string> }
  | { readonly kind: 'http'; readonly url: string; readonly headers?: Record<string, string> };

/** `auto` probes server/discover and falls back to initialize; the others pin one era. */
export type Era = 'auto' | '2025' | '2026';

/** What the reader needs from a connected client: raw requests, so that nothing the server sent is parsed away. */
export interface RawClient {
  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  serverInfo(): Record<string, unknown> | undefined;
  instructions(): string | undefined;
  capabilities(): Record<string, unknown> | undefined;
  protocolVersion(): string | undefined;
  /** The `_meta` of the initialize or server/discover result: what the server says about itself beside serverInfo. */
  resultMeta(): Record<string, unknown> | undefined;
  close(): Promise<void>;
}

// A StandardSchema that accepts any result as sent: the SDK's own result schemas drop tools it judges
// invalid and would hide what the server really published.
export const AS_SENT = { '~standard': { version: 1, vendor: 'mcpgen', validate: (value: unknown) => ({ value }) } } as const;

/** The official client is an optional peer: loaded only here, with the install line when it is missing. */
async function loadSdk(): Promise<{ client: typeof import('@modelcontextprotocol/client'); stdio: typeof import('@modelcontextprotocol/client/stdio') }> {
  try {
    return { client: await import('@modelcontextprotocol/client'), stdio: await import('@modelcontextprotocol/client/stdio') };
  } catch {
    throw new EnvironmentError('`mcpgen import mcp` and `mcpgen test` need the official MCP client; install it with `npm install --save-dev @modelcontextprotocol/client@2`');
  }
}

type SdkClient = InstanceType<typeof import('@modelcontextprotocol/client').Client>;

/** The official client, connected (`mcpgen test` drives servers with it too); `initializeMeta` reads what the client keeps not. */
export async function openSdkClient(target: ServerTarget, era: Era, timeoutMs: number, name = 'mcpgen-import'): Promise<{ client: SdkClient; initializeMeta: () => Record<string, unknown> | undefined }> {
  const sdk = await loadSdk();
  const mode = era === 'auto' ? 'auto' : era === '2026' ? { pin: '2026-07-28' } : 'legacy';
  const client = new sdk.client.Client({ name, version: '1' }, { versionNegotiation: { mode, probe: { timeoutMs } } });
  const transport = target.kind === 'http' ? httpTransport(sdk.client, target) : stdioTransport(sdk.stdio, target);
  const initializeMeta = captureInitializeMeta(transport);
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (e) {
    await client.close().catch(() => undefined);
    throw new EnvironmentError(`cannot connect to ${describeTarget(target)}: ${reason(e)}`);
  }
  return { client, initializeMeta };
}

export async function connect(target: ServerTarget, era: Era, timeoutMs: number): Promise<RawClient> {
  const { client, initializeMeta } = await openSdkClient(target, era, timeoutMs);
  return rawClient(client, initializeMeta, timeoutMs);
}

/** A connected client's raw face: requests answered as sent, and what it learned when it connected. */
export function rawClient(client: SdkClient, initializeMeta: () => Record<string, unknown> | undefined, timeoutMs: number): RawClient {
  return {
    request: async (method, params) => (await client.request({ method, params } as never, AS_SENT as never, { timeout: timeoutMs })) as Record<string, unknown>,
    serverInfo: () => client.getServerVersion() as Record<string, unknown> | undefined,
    instructions: () => client.getInstructions(),
    capabilities: () => client.getServerCapabilities() as Record<string, unknown> | undefined,
    protocolVersion: () => client.getNegotiatedProtocolVersion(),
    resultMeta: () => (client.getDiscoverResult()?._meta as Record<string, unknown> | undefined) ?? initializeMeta(),
    close: () => client.close(),
  };
}

interface Received {
  onmessage?: ((message: unknown, extra?: unknown) => void) | undefined;
}

/**
 * The client keeps the initialize result's serverInfo and instructions but not its `_meta`, so that is read
 * off the wire: every handler the client sets on the transport first passes the message by here.
 */
function captureInitializeMeta(transport: object): () => Record<string, unknown> | undefined {
  let meta: Record<string, unknown> | undefined;
  let handler: Received['onmessage'];
  const record = (message: unknown) => {
    const result = (message as { result?: { serverInfo?: unknown; protocolVersion?: unknown; _meta?: unknown } }).result;
    if (meta === undefined && result?.serverInfo !== undefined && result.protocolVersion !== undefined && typeof result._meta === 'object' && result._meta !== null) meta = result._meta as Record<string, unknown>;
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler,
    set: (next: Received['onmessage']) => {
      handler = next === undefined ? undefined : (message, extra) => (record(message), next(message, extra));
    },
  });
  return () => meta;
}

function httpTransport(sdk: typeof import('@modelcontextprotocol/client'), target: Extract<ServerTarget, { kind: 'http' }>) {
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    throw new UsageError(`--url ${JSON.stringify(target.url)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url must be http: or https:; got ${JSON.stringify(target.url)}`);
  return new sdk.StreamableHTTPClientTransport(url, target.headers === undefined ? undefined : { requestInit: { headers: target.headers } });
}

function stdioTransport(sdk: typeof import('@modelcontextprotocol/client/stdio'), target: Extract<ServerTarget, { kind: 'stdio' }>) {
  return new sdk.StdioClientTransport({
    command: target.command,
    args: [...target.args],
    stderr: 'ignore',
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    ...(target.env === undefined ? {} : { env: target.env }),
  });
}

export function describeTarget(target: ServerTarget): string {
  return target.kind === 'http' ? target.url : [target.command, ...target.args].join(' ');
}

/** One line for the user: the cause chain's messages, never a stack. */
export function reason(e: unknown): string {
  const parts: string[] = [];
  for (let cur: unknown = e; cur instanceof Error && parts.length < 3; cur = (cur as { cause?: unknown }).cause) {
    if (cur.message !== '' && !parts.includes(cur.message)) parts.push(cur.message);
  }
  return parts.length > 0 ? parts.join(': ') : String(e);
}
