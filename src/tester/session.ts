// The official client connected to the server under test, and each call's outcome as the tester judges it:
// a result, a JSON-RPC error (with its code), no answer in time, or a closed connection.
// Results are taken as sent (AS_SENT): the SDK's own result schemas would reject, and so hide, what the server got wrong.
import { AS_SENT, openSdkClient, rawClient, reason, type ServerTarget } from '../import/mcp/connect.js';
import type { ServerDump } from '../import/mcp/read.js';
import { readServer } from '../import/mcp/read.js';

export type Outcome =
  | { readonly kind: 'result'; readonly result: Record<string, unknown> }
  | { readonly kind: 'error'; readonly code: number; readonly message: string }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'closed'; readonly message: string };

type Client = Awaited<ReturnType<typeof openSdkClient>>['client'];

export class Session {
  private constructor(
    private client: Client,
    private readonly target: ServerTarget,
    readonly timeoutMs: number,
    private readonly initializeMeta: () => Record<string, unknown> | undefined,
  ) {}

  static async open(target: ServerTarget, timeoutMs: number): Promise<Session> {
    const { client, initializeMeta } = await openSdkClient(target, 'auto', Math.max(timeoutMs, 10_000), 'mcpgen-test');
    return new Session(client, target, timeoutMs, initializeMeta);
  }

  get protocolVersion(): string | undefined {
    return this.client.getNegotiatedProtocolVersion();
  }

  /** Every list as the server sent it, read the way `mcpgen import mcp` reads it. */
  dump(): Promise<ServerDump> {
    return readServer(rawClient(this.client, this.initializeMeta, Math.max(this.timeoutMs, 10_000)));
  }

  /**
   * tools/call through the client's callTool, given the spec's definition: the client mirrors the spec's
   * `x-mcp-header` arguments into Mcp-Param-* over HTTP. The output schema is left out of what it is given,
   * so a wrong structuredContent comes back for the tester to report, not as the client's own -32602.
   */
  callTool(tool: { name: string; inputSchema: object }, args: unknown): Promise<Outcome> {
    // Only HTTP has headers to mirror; over stdio the definition would only cost the client a schema compile per call.
    const options = this.target.kind === 'http' ? { timeout: this.timeoutMs, toolDefinition: { name: tool.name, inputSchema: tool.inputSchema } as never } : { timeout: this.timeoutMs };
    return this.outcome(() => this.client.callTool({ name: tool.name, arguments: args as Record<string, unknown> }, options));
  }

  getPrompt(name: string, args: Record<string, string>): Promise<Outcome> {
    return this.outcome(() => this.client.request({ method: 'prompts/get', params: { name, arguments: args } } as never, AS_SENT as never, { timeout: this.timeoutMs }));
  }

  readResource(uri: string): Promise<Outcome> {
    return this.outcome(() => this.client.request({ method: 'resources/read', params: { uri } } as never, AS_SENT as never, { timeout: this.timeoutMs }));
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }

  private async outcome(call: () => Promise<unknown>): Promise<Outcome> {
    try {
      return { kind: 'result', result: (await call()) as Record<string, unknown> };
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (code === 'REQUEST_TIMEOUT') return { kind: 'timeout' };
      if (typeof code === 'number') return { kind: 'error', code, message: (e as Error).message };
      // The server went away (a crash over stdio): later calls get a fresh connection.
      const message = reason(e);
      await this.reconnect();
      return { kind: 'closed', message };
    }
  }

  private async reconnect(): Promise<void> {
    await this.client.close().catch(() => undefined);
    try {
      const fresh = await openSdkClient(this.target, 'auto', Math.max(this.timeoutMs, 10_000), 'mcpgen-test');
      this.client = fresh.client;
    } catch {
      // Still down: every later call reports it closed.
    }
  }
}
