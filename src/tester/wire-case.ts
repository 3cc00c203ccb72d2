// The wire check of one tool as a case: arguments fast-check generated (the one with the most header-bound
// values, non-ASCII ones first so the base64 sentinel is exercised), then the probes of wire.ts.
import { paramHeadersFor } from '@mcpgen/runtime/shared';
import { schemaArbitrary } from './schema-arbitrary.js';
import type { PreparedTool, ToolContext } from './tool-checks.js';
import type { CaseResult } from './types.js';
import { wireProblem } from './wire.js';

type Args = Record<string, unknown>;

/** Of some valid values, the one that puts the most into headers, preferring sentinel-encoded ones. */
export function wireArguments(ctx: ToolContext, p: PreparedTool, seed: number): Args | undefined {
  const samples = ctx.fc.sample(schemaArbitrary(ctx.fc, p.tool.inputSchema), { seed, numRuns: 60 }).filter((v): v is Args => typeof v === 'object' && v !== null && !Array.isArray(v) && p.input(v) === undefined);
  const score = (a: Args) => {
    const headers = Object.values(paramHeadersFor(p.tool.headers, a));
    return headers.length * 2 + (headers.some((h) => h.startsWith('=?base64?')) ? 1 : 0);
  };
  return samples.sort((a, b) => score(b) - score(a))[0];
}

export async function wireCase(ctx: ToolContext, p: PreparedTool, url: string, seed: number, given?: Args): Promise<CaseResult> {
  const item = `tool ${p.tool.name}`;
  const args = given ?? wireArguments(ctx, p, seed);
  if (args === undefined) return { item, check: 'wire', status: 'skipped', calls: 0, message: 'no valid arguments generated to send' };
  const calls = 2 + p.tool.headers.length * 2;
  for (let i = 0; i < calls; i++) ctx.budget.take();
  const problem = await wireProblem(url, p.tool, args, ctx.options.timeoutMs);
  if (problem === undefined) return { item, check: 'wire', status: 'passed', calls };
  return { item, check: 'wire', status: 'failed', calls, message: problem, replay: { kind: 'tool', name: p.tool.name, check: 'wire', arguments: args } };
}
