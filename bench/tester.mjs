// node bench/tester.mjs: `mcpgen test` against the generated weather server over stdio, as a user runs it
// (one CLI process, the server started by it): calls per second over a whole run. Then, in process, what
// the tester itself adds per call: fast-check generating a value of get_forecast's input schema, ajv
// checking it, and ajv checking a result's structuredContent against the output schema.
// TESTER_RUNS (default 200) values per property. Prints a Markdown table.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { compileGenerated, ROOT } from './support.mjs';

const RUNS = Number(process.env.TESTER_RUNS ?? 200);
const main = join(compileGenerated('weather', join(ROOT, '.tmp/bench-tester')), 'main.js');

const r = spawnSync(process.execPath, ['bin/mcpgen.js', 'test', 'specs/weather.yaml', '--reporter', 'json', '--runs', String(RUNS), '--max-calls', '1000000', '--', process.execPath, main], { cwd: ROOT, encoding: 'utf8' });
if (r.status !== 0) throw new Error(`mcpgen test failed (${r.status}): ${r.stderr}${r.stdout.slice(0, 2000)}`);
const report = JSON.parse(r.stdout);

const { check } = await import(join(ROOT, 'dist/pipeline.js'));
const { schemaArbitrary } = await import(join(ROOT, 'dist/tester/schema-arbitrary.js'));
const { validatorOf } = await import(join(ROOT, 'dist/tester/tool-checks.js'));
const tool = check([join(ROOT, 'specs/weather.yaml')], ROOT).models[0].tools.find((t) => t.name === 'get_forecast');
const input = validatorOf(tool.inputSchema);
const output = validatorOf(tool.outputSchema);
const N = 20_000;
const t0 = process.hrtime.bigint();
const values = fc.sample(schemaArbitrary(fc, tool.inputSchema), { seed: 1, numRuns: N });
const t1 = process.hrtime.bigint();
for (const v of values) input(v);
const t2 = process.hrtime.bigint();
const result = { city: 'Paris', temperature: 21.5, conditions: 'sunny', wind: { speed: 3, direction: 'NW' } };
for (let i = 0; i < N; i++) output(result);
const t3 = process.hrtime.bigint();
const us = (a, b) => (Number(b - a) / 1e3 / N).toFixed(2);

console.log(`### mcpgen test (Node ${process.version})\n`);
console.log('| measure | value |\n| --- | --- |');
console.log(`| whole run against generated weather over stdio (${report.summary.calls} calls, ${RUNS} values per property, start-up included) | ${report.seconds.toFixed(2)} s, ${(report.summary.calls / report.seconds).toFixed(0)} calls/s |`);
console.log(`| generating one get_forecast input (fast-check) | ${us(t0, t1)} µs |`);
console.log(`| checking it against the input schema (ajv) | ${us(t1, t2)} µs |`);
console.log(`| checking a structuredContent against the output schema (ajv) | ${us(t2, t3)} µs |`);
