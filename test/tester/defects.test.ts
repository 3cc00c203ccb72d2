// `mcpgen test` against generated servers whose handlers are seeded with defects (test/support/defect-server.mjs):
// each defect is found, shrunk to a minimal input, saved, and found again by --replay; the same replay
// against the correct server passes. A handler that answers valid results, but not the ones the spec's
// `examples:` show, fails those examples.
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { encodeHeaderValue } from '@mcpgen/runtime/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../helpers.js';
import { ROOT, startScript, compiledMain, type HttpProcess } from '../support/servers.js';

const DEFECTS = join(ROOT, 'test/support/defect-server.mjs');

interface Case { item: string; check: string; example?: string; status: string; message?: string; replay?: { arguments?: unknown } }

async function run(argv: string[]): Promise<{ code: number; cases: Case[]; stdout: string }> {
  const r = await cli(['test', '--reporter', 'json', ...argv]);
  if (r.code > 1 || r.stdout === '') throw new Error(r.stderr);
  const report = JSON.parse(r.stdout) as { cases: Case[] };
  return { code: r.code, cases: report.cases, stdout: r.stdout };
}

const failed = (cases: Case[], item: string) => cases.find((c) => c.item === item && c.status === 'failed' && c.check !== 'example');

describe('seeded defects over stdio', () => {
  const dir = tempDir();
  const save = join(dir, 'failures.json');

  it('finds, shrinks and replays each defect of the weather handlers', async () => {
    const server = ['--', process.execPath, DEFECTS, 'weather'];
    const r = await run(['specs/weather.yaml', '--timeout', '300', '--save', save, ...server]);
    expect(r.code).toBe(1);
    // A missing required output field: the minimal input keeps only what triggers it.
    const forecast = failed(r.cases, 'tool get_forecast')!;
    expect(forecast.message).toMatch(/output schema/);
    expect(forecast.replay!.arguments).toMatchObject({ units: 'imperial' });
    expect(Object.keys(forecast.replay!.arguments as object).sort()).toEqual(['city', 'units']);
    expect(((forecast.replay!.arguments as { city: string }).city).length).toBe(1);
    // An enum value outside the output schema: shrunk to a two-letter code with a Z.
    const alerts = failed(r.cases, 'tool get_alerts')!;
    expect(alerts.message).toMatch(/output schema/);
    expect((alerts.replay!.arguments as { state: string }).state).toMatch(/^(Z[A-Z]|[A-Z]Z)$/);
    // A hang: reported as such, shrunk down to just past the threshold.
    const add = failed(r.cases, 'tool add')!;
    expect(add.message).toMatch(/no answer within 300 ms/);
    const { a, b } = add.replay!.arguments as { a: number; b: number };
    expect(a).toBeGreaterThan(100);
    expect(a).toBeLessThan(101);
    expect(b).toBe(0);
    // The spec's examples run first: the alerts handler answers a valid result, but not the one they show.
    expect(r.cases.filter((c) => c.check === 'example').map((c) => [c.item, c.example, c.status, c.message])).toEqual([
      ['tool get_forecast', 'example "Paris, tomorrow"', 'passed', undefined],
      ['tool get_alerts', 'example "California"', 'failed', 'structuredContent.alerts[0].event is "Wind", the example expects "Heat Advisory"'],
      ['tool get_alerts', 'example "no alerts"', 'failed', 'structuredContent.alerts has 1 item(s), the example expects 0'],
      ['tool add', 'example 1', 'passed', undefined],
    ]);
    expect(r.cases.findIndex((c) => c.check === 'valid')).toBeGreaterThan(r.cases.findLastIndex((c) => c.check === 'example'));
    expect(r.cases.filter((c) => c.status === 'failed')).toHaveLength(5);

    const saved = JSON.parse(readFileSync(save, 'utf8'));
    expect(saved.failures).toHaveLength(5);
    expect(saved.failures[0]).toMatchObject({ kind: 'tool', name: 'get_alerts', check: 'example', example: 'example "California"', arguments: { state: 'CA' } });
    const again = await run(['specs/weather.yaml', '--timeout', '300', '--replay', save, ...server]);
    expect(again.code).toBe(1);
    expect(again.cases.map((c) => [c.item, c.status])).toEqual([['tool get_alerts', 'failed'], ['tool get_alerts', 'failed'], ['tool get_forecast', 'failed'], ['tool get_alerts', 'failed'], ['tool add', 'failed']]);
    const fixed = await run(['specs/weather.yaml', '--timeout', '5000', '--replay', save, '--', process.execPath, compiledMain('weather')]);
    expect(fixed.code).toBe(0);
    expect(fixed.cases.every((c) => c.status === 'passed')).toBe(true);
  });

  it('finds a throw on an empty string, shrunk to the empty string', async () => {
    const r = await run(['specs/sql.yaml', '--save', save, '--', process.execPath, DEFECTS, 'sql']);
    expect(r.code).toBe(1);
    const tables = failed(r.cases, 'tool list_tables')!;
    expect(tables.message).toMatch(/tool error/);
    expect(tables.replay!.arguments).toEqual({ region: '' });
  });

  it('prints a ready-to-run replay command and a JUnit report', async () => {
    const r = await cli(['test', 'specs/sql.yaml', '--reporter', 'junit', '--save', save, '--', process.execPath, DEFECTS, 'sql']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^<\?xml/);
    expect(r.stdout).toMatch(/<testsuite name="mcpgen test" tests="\d+" failures="1" skipped="1"/);
    expect(r.stdout).toContain(`mcpgen test specs/sql.yaml --replay ${save} -- ${process.execPath} ${DEFECTS} sql`);
  });
});

describe('wire rules over HTTP', () => {
  const servers: HttpProcess[] = [];
  const proxies: ReturnType<typeof createServer>[] = [];
  afterAll(async () => {
    for (const p of proxies) p.close();
    for (const s of servers) await s.stop();
  });

  /** An intermediary that "fixes" Mcp-Param-Region from the body instead of letting the server refuse a mismatch. */
  function echoingProxy(target: URL): Promise<string> {
    const proxy = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const headers = { ...req.headers };
        const region = (JSON.parse(body || '{}') as { params?: { arguments?: { region?: unknown } } }).params?.arguments?.region;
        if (headers['mcp-param-region'] !== undefined && typeof region === 'string') headers['mcp-param-region'] = encodeHeaderValue(region);
        const out = request(target, { method: req.method, headers }, (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        });
        out.end(body);
      });
    });
    proxies.push(proxy);
    return new Promise((done) => proxy.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(proxy.address() as { port: number }).port}${target.pathname}`)));
  }

  it('passes the generated sql server and catches a header the server side does not compare', async () => {
    const sql = await startScript(compiledMain('sql'));
    servers.push(sql);
    const save = join(tempDir(), 'failures.json');
    const direct = await run(['specs/sql.yaml', '--url', sql.url, '--runs', '10', '--save', save]);
    expect(direct.cases.filter((c) => c.check === 'wire').map((c) => [c.item, c.status])).toEqual([['tool list_tables', 'passed']]);
    expect(direct.code).toBe(0);
    const bad = await run(['specs/sql.yaml', '--url', await echoingProxy(new URL(sql.url)), '--runs', '10', '--save', save]);
    expect(bad.code).toBe(1);
    const wire = failed(bad.cases, 'tool list_tables')!;
    expect(wire.check).toBe('wire');
    expect(wire.message).toMatch(/Mcp-Param-Region: .* was not refused with 400 \/ -32020: HTTP 200/);
  });
});
