// (a) the server mcpgen generated for the bench spec, on its own handlers.
import { join } from 'node:path';
const [pkgDir, port] = process.argv.slice(2);
const server = await import(join(pkgDir, 'server.js'));
const { definition } = await import(join(pkgDir, 'definition.js'));
const handlers = {};
for (const t of definition.tools) handlers[t.method] = () => 'ok';
handlers.echo = (args) => JSON.stringify(args);
handlers.stats = ({ values }) => ({ sum: values.reduce((a, b) => a + b, 0), count: values.length });
handlers.regional = ({ region, key }) => `${region}:${key}`;
const create = Object.values(server).find((v) => typeof v === 'function' && v.name.startsWith('create'));
// BENCH_AUTH_ISSUER: the same definition behind a bearer gate (JWT verified against that issuer's JWKS).
const issuer = process.env.BENCH_AUTH_ISSUER;
const { createMcpgenServer } = await import('@mcpgen/runtime/server');
const protectedServer = () =>
  createMcpgenServer({ ...definition, auth: { authorizationServers: [issuer], scopes: { bench: 'Call the bench tools' }, requiredScopes: ['bench'] } }, handlers, { auth: { resource: process.env.BENCH_AUTH_RESOURCE } });
const running = await (issuer ? protectedServer() : create(handlers)).listen({ port: Number(port), responseMode: 'auto', ...(process.env.BENCH_FAST_PATH === '0' ? { fastPath: false } : {}) });
process.stderr.write(`listening on ${running.url}\n`);

// BENCH_FAST_PATH=0: the same server with the node:http fast path off (every request through the SDK).
// Exit cleanly on SIGINT so --cpu-prof can write its profile.
process.on('SIGINT', () => process.exit(0));
