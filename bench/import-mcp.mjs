// node bench/import-mcp.mjs: `mcpgen import mcp` of a published server with 50+ tools (@zereight/mcp-gitlab,
// 118 tools, pinned in test/import-servers; `npm run bench` installs it), as a user runs it: one cold CLI
// process that starts the server over stdio, reads every list and writes the spec. The server's own
// start-up is measured alone too (spawn to the tools/list answer, with the SDK client), so the import's
// share is the difference; in process, the reading and the writing are timed apart. IMPORT_RUNS (default 5) runs each, alternated; medians. Prints a Markdown table.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.IMPORT_RUNS ?? 5);
const SERVER = join(ROOT, 'test/import-servers/node_modules/@zereight/mcp-gitlab/build/index.js');
// Offline and without credentials: a token the server only forwards, an API on a port nothing listens on.
const ENV = ['GITLAB_PERSONAL_ACCESS_TOKEN=glpat-bench', 'GITLAB_API_URL=http://127.0.0.1:9/api/v4'];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (!existsSync(SERVER)) throw new Error('the published servers are not installed: run `npm ci --prefix test/import-servers --no-audit --no-fund --ignore-scripts`');

/** Whole-process wall time of one command, in seconds, with its stdout. */
function timed(args) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return { seconds: Number(process.hrtime.bigint() - t) / 1e9, stdout: r.stdout, stderr: r.stderr };
}

// The server alone: the SDK client connects and lists the tools, nothing else (the import's floor).
const LIST_ONLY = `
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
const c = new Client({ name: 'bench', version: '1' });
await c.connect(new StdioClientTransport({ command: 'env', args: [...${JSON.stringify(ENV)}, process.execPath, ${JSON.stringify(SERVER)}], stderr: 'ignore' }));
process.stdout.write(String((await c.listTools()).tools.length));
await c.close();
`;

const imports = [];
const lists = [];
let spec = '';
let tools = 0;
for (let i = 0; i < RUNS + 1; i++) {
  const run = timed([join(ROOT, 'bin/mcpgen.js'), 'import', 'mcp', '--era', '2025', '--', 'env', ...ENV, process.execPath, SERVER]);
  const floor = timed(['--input-type=module', '-e', LIST_ONLY]);
  if (i === 0) continue; // warm the file cache for both
  imports.push(run.seconds);
  lists.push(floor.seconds);
  spec = run.stdout;
  tools = Number(floor.stdout);
}
// In process (dist/import/mcp): the reading (spawn, connect, every list) and the writing (dump → spec text) apart.
const { importMcp, dumpToYaml } = await import('../dist/import/mcp/index.js');
const target = { kind: 'stdio', command: 'env', args: [...ENV, process.execPath, SERVER] };
const reads = [];
const writes = [];
for (let i = 0; i < RUNS; i++) {
  let t = process.hrtime.bigint();
  const { dump } = await importMcp({ target, era: '2025' });
  reads.push(Number(process.hrtime.bigint() - t) / 1e9);
  t = process.hrtime.bigint();
  dumpToYaml(dump, 'bench', false);
  writes.push(Number(process.hrtime.bigint() - t) / 1e9);
}
const imported = median(imports);
const listed = median(lists);
console.log(`\n### import mcp of a ${tools}-tool published server (@zereight/mcp-gitlab 2.1.64, ${RUNS} runs, medians)\n`);
console.log('| measure | seconds |');
console.log('|---|---|');
console.log(`| \`mcpgen import mcp -- <server>\` (cold CLI: start the server, read every list, write ${Math.round(spec.length / 1024)} KB of spec) | ${imported.toFixed(2)} |`);
console.log(`| the server alone: spawn, connect, tools/list (SDK client) | ${listed.toFixed(2)} |`);
console.log(`| in process: start the server and read every list (\`importMcp\`) | ${median(reads).toFixed(2)} |`);
console.log(`| in process: dump → spec text (\`dumpToYaml\`, ${tools} tools) | ${median(writes).toFixed(3)} |`);
