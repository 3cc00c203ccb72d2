// The client the conformance suite drives: `conformance client --command "node this-file"` appends the
// server URL and sets MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT). It is a generic host
// built on the generated clients' base class (@mcpgen/runtime/client): it takes the server's live tool
// definitions, as a host that was not generated for this server would, and exercises what the
// scenario serves.
import { McpgenClient } from '@mcpgen/runtime/client';

class HostClient extends McpgenClient {
  constructor() {
    super([]);
  }
  // connectionRetry 'always': the suite's tools are fixtures, and it starts all its clients at once, so on
  // 2 cores a client can stall past the scenario server's 5 s keep-alive and write to a closed connection.
  static async connect(url) {
    const client = new HostClient();
    await client.open({ url }, { negotiation: 'auto', connectionRetry: 'always', onElicit: () => ({ action: 'accept', content: { confirmed: true, ok: true, name: 'conformance' } }) }, 'mcpgen-conformance-client');
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
const client = await HostClient.connect(url);
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
