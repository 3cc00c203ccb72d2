// (c) the floor: bare JSON-RPC on node:http doing the same validation (ajv-compiled arguments, the
// envelope, the standard and Mcp-Param headers) and nothing else. No SDK-based server can beat it.
import { createServer } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { benchTools } from '../bench-spec.mjs';

const [total, port] = process.argv.slice(2).map(Number);
const tools = benchTools(total);
const ajv = new Ajv2020({ strict: false });
(addFormatsModule.default ?? addFormatsModule)(ajv);
const byName = new Map(tools.map((t) => [t.name, { ...t, validate: ajv.compile(t.input) }]));
const list = JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.input, ...(t.output ? { outputSchema: t.output } : {}) })));
const send = (res, status, id, body) => {
  const text = JSON.stringify({ jsonrpc: '2.0', id, ...body });
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(text);
};

createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let msg;
    try {
      msg = JSON.parse(Buffer.concat(chunks).toString());
    } catch {
      return send(res, 400, null, { error: { code: -32700, message: 'Parse error' } });
    }
    const meta = msg.params?._meta;
    if (meta?.['io.modelcontextprotocol/protocolVersion'] !== '2026-07-28' || req.headers['mcp-protocol-version'] !== '2026-07-28') return send(res, 400, msg.id, { error: { code: -32022, message: 'Unsupported', data: { supported: ['2026-07-28'], requested: '' } } });
    if (req.headers['mcp-method'] !== msg.method) return send(res, 400, msg.id, { error: { code: -32020, message: 'Header mismatch' } });
    if (msg.method === 'tools/list') return send(res, 200, msg.id, { result: JSON.parse(`{"tools":${list},"resultType":"complete","ttlMs":0,"cacheScope":"public"}`) });
    if (msg.method !== 'tools/call') return send(res, 404, msg.id, { error: { code: -32601, message: 'Method not found' } });
    const tool = byName.get(msg.params.name);
    if (!tool) return send(res, 200, msg.id, { error: { code: -32602, message: 'Unknown tool' } });
    if (req.headers['mcp-name'] !== msg.params.name) return send(res, 400, msg.id, { error: { code: -32020, message: 'Header mismatch' } });
    const args = msg.params.arguments ?? {};
    if (tool.name === 'regional' && req.headers['mcp-param-region'] !== args.region) return send(res, 400, msg.id, { error: { code: -32020, message: 'Header mismatch' } });
    if (!tool.validate(args)) return send(res, 200, msg.id, { result: { content: [{ type: 'text', text: ajv.errorsText(tool.validate.errors) }], isError: true, resultType: 'complete' } });
    let result;
    if (tool.name === 'echo') result = { content: [{ type: 'text', text: JSON.stringify(args) }] };
    else if (tool.name === 'stats') {
      const sc = { sum: args.values.reduce((a, b) => a + b, 0), count: args.values.length };
      result = { content: [{ type: 'text', text: JSON.stringify(sc) }], structuredContent: sc };
    } else result = { content: [{ type: 'text', text: 'ok' }] };
    send(res, 200, msg.id, { result: { ...result, resultType: 'complete' } });
  });
}).listen(port, '127.0.0.1', function () {
  process.stderr.write(`listening on http://127.0.0.1:${this.address().port}/mcp\n`);
});

// Exit cleanly on SIGINT so --cpu-prof can write its profile.
process.on('SIGINT', () => process.exit(0));
