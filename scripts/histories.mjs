// npm run histories: `mcpgen breaking` on the real version histories of published MCP servers (issue 45).
// Each version listed in test/fixtures/histories/servers.json is installed from the npm registry into
// .tmp/histories/<id>@<version> (npm install --prefix, --ignore-scripts; kept for the next run), its lists
// are read over stdio with `mcpgen import mcp`, and `mcpgen breaking --format json` runs between each pair
// of neighbours. The raw findings go to test/fixtures/histories/findings.json (positions reduced to the
// JSON path); test/fixtures/histories/verdicts.json classifies each one, and test/compare/histories.test.ts
// checks that every finding there has a verdict. HISTORIES_ONLY=id[,id] runs some servers only.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const MCPGEN = join(ROOT, 'bin/mcpgen.js');
const WORK = join(ROOT, '.tmp/histories');
const FIXTURES = join(ROOT, 'test/fixtures/histories');
const servers = JSON.parse(readFileSync(join(FIXTURES, 'servers.json'), 'utf8')).servers;
const only = process.env.HISTORIES_ONLY?.split(',');

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...options });
  if (r.error) throw r.error;
  return r;
}

/** Installs pkg@version once; returns the path of its stdio entry point (its package.json `bin`). */
function install(server, version) {
  const prefix = join(WORK, `${server.id}@${version}`);
  const home = join(prefix, 'node_modules', server.package);
  if (!existsSync(join(home, 'package.json'))) {
    mkdirSync(prefix, { recursive: true });
    writeFileSync(join(prefix, 'package.json'), '{"private":true}\n');
    process.stderr.write(`installing ${server.package}@${version}\n`);
    const r = run('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', `${server.package}@${version}`], { stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status !== 0) throw new Error(`npm install ${server.package}@${version}: ${r.stderr}`);
  }
  const { bin } = JSON.parse(readFileSync(join(home, 'package.json'), 'utf8'));
  const entry = typeof bin === 'string' ? bin : Object.values(bin)[0];
  return { prefix, entry: join(home, entry) };
}

/** The version's lists as a spec, through `mcpgen import mcp -- env … node BIN args` (env: the import passes the SDK's filtered environment on). */
function importVersion(server, version) {
  const { prefix, entry } = install(server, version);
  const spec = join(prefix, 'spec.yaml');
  const data = join(prefix, 'data');
  mkdirSync(data, { recursive: true });
  const env = Object.entries(server.env ?? {}).map(([k, v]) => `${k}=${v.replaceAll('{data}', data)}`);
  const args = (server.args ?? []).map((a) => a.replaceAll('{data}', data));
  const r = run(process.execPath, [MCPGEN, 'import', 'mcp', '--era', '2025', '--out', spec, '--', 'env', ...env, process.execPath, entry, ...args], { cwd: data });
  if (r.status !== 0) throw new Error(`import mcp ${server.package}@${version}: exit ${r.status}\n${r.stderr}`);
  const tools = /imported (\d+) tools/.exec(r.stderr)?.[1];
  return { spec, tools: Number(tools) };
}

/** One finding without machine paths: what it is about is its rule, message and JSON path. */
function slim(f) {
  return { rule: f.rule, category: f.category, severity: f.severity, failing: f.failing, message: f.message, path: (f.new ?? f.old)?.path ?? '' };
}

function compare(base, spec) {
  const r = run(process.execPath, [MCPGEN, 'breaking', '--base', base, spec, '--format', 'json'], { cwd: dirname(spec) });
  if (r.status !== 0 && r.status !== 1) throw new Error(`breaking ${base} ${spec}: exit ${r.status}\n${r.stderr}`);
  return JSON.parse(r.stdout).findings.map(slim);
}

const outFile = join(FIXTURES, 'findings.json');
const previous = existsSync(outFile) ? JSON.parse(readFileSync(outFile, 'utf8')).pairs : [];
const pairs = previous.filter((p) => only !== undefined && !only.includes(p.server));
for (const server of servers) {
  if (only !== undefined && !only.includes(server.id)) continue;
  let before;
  for (const version of server.versions) {
    const now = { version, ...importVersion(server, version) };
    if (before !== undefined) {
      const same = readFileSync(before.spec, 'utf8') === readFileSync(now.spec, 'utf8');
      const findings = compare(before.spec, now.spec);
      pairs.push({ server: server.id, package: server.package, from: before.version, to: version, tools: [before.tools, now.tools], identical: same, findings });
      process.stderr.write(`${server.id} ${before.version} → ${version}: ${findings.length} findings${same ? ' (identical lists)' : ''}\n`);
    }
    before = now;
  }
}
const order = servers.map((s) => s.id);
pairs.sort((a, b) => order.indexOf(a.server) - order.indexOf(b.server) || servers[order.indexOf(a.server)].versions.indexOf(a.from) - servers[order.indexOf(b.server)].versions.indexOf(b.from));
writeFileSync(outFile, `${JSON.stringify({ pairs }, null, 2)}\n`);
process.stderr.write(`wrote ${outFile.slice(ROOT.length + 1)}: ${pairs.length} pairs, ${pairs.reduce((n, p) => n + p.findings.length, 0)} findings\n`);
