// The server `mcpgen import openapi` + `generate` made from an OpenAPI description: its tools are bound to
// their operations (`http:`), so the generated factory proxies them to <NAME>_BASE_URL; handlers.js is the
// scaffold (empty when every tool is bound). Args: compiled package folder, port.
import { join } from 'node:path';
const [pkgDir, port] = process.argv.slice(2);
const server = await import(join(pkgDir, 'server.js'));
const { handlers } = await import(join(pkgDir, 'handlers.js'));
const create = Object.values(server).find((v) => typeof v === 'function' && v.name.startsWith('create'));
const running = await create(handlers).listen({ port: Number(port), responseMode: 'auto' });
process.stderr.write(`listening on ${running.url}\n`);
process.on('SIGINT', () => process.exit(0));
