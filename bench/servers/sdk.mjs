// (b) the same tools written by hand on @modelcontextprotocol/server 2.4 the way its README shows:
// McpServer + registerTool with JSON Schemas through fromJsonSchema, createMcpHandler(factory).
import { createServer } from 'node:http';
import { McpServer, createMcpHandler, fromJsonSchema } from '@modelcontextprotocol/server';
import { benchTools } from '../bench-spec.mjs';

const [total, port] = process.argv.slice(2).map(Number);
const tools = benchTools(total);
const handler = createMcpHandler(() => {
  const server = new McpServer({ name: `bench${total}`, version: '1.0.0' });
  for (const t of tools) {
    const config = { description: t.description, inputSchema: fromJsonSchema(t.input), ...(t.output ? { outputSchema: fromJsonSchema(t.output) } : {}) };
    server.registerTool(t.name, config, async (args) => {
      if (t.name === 'echo') return { content: [{ type: 'text', text: JSON.stringify(args) }] };
      if (t.name === 'stats') {
        const sc = { sum: args.values.reduce((a, b) => a + b, 0), count: args.values.length };
        return { content: [{ type: 'text', text: JSON.stringify(sc) }], structuredContent: sc };
      }
      if (t.name === 'regional') return { content: [{ type: 'text', text: `${args.region}:${args.key}` }] };
      return { content: [{ type: 'text', text: 'ok' }] };
    });
  }
  return server;
}, { legacy: 'reject' });

// The ~30-line node:http adapter SDK-NOTES describes.
const http = createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: req.method === 'POST' ? Buffer.concat(chunks) : undefined });
  const response = await handler.fetch(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const c of response.body) res.write(c);
  res.end();
});
http.listen(port, '127.0.0.1', () => process.stderr.write(`listening on http://127.0.0.1:${http.address().port}/mcp\n`));

// Exit cleanly on SIGINT so --cpu-prof can write its profile.
process.on('SIGINT', () => process.exit(0));
