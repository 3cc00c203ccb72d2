// `mcpgen test`: the whole run against one server — lists, then the spec's examples, then per tool, prompt
// and resource template its property checks, a few at a time (--concurrency), within one call budget (--max-calls).
import type { Side } from '../compare/index.js';
import { describeTarget, type ServerTarget } from '../import/mcp/connect.js';
import type { ServerModel } from '../model/ir.js';
import { promptExampleCases, toolExampleCases } from './example-checks.js';
import { listsCase } from './lists.js';
import { promptChecks, templateCheck } from './prompt-checks.js';
import { Budget } from './property.js';
import { Session } from './session.js';
import { invalidCheck, prepareTool, skipReason, validCheck, type ToolContext } from './tool-checks.js';
import { excludes, type CaseResult, type TestOptions } from './types.js';
import { wireCase } from './wire-case.js';

export async function loadFastCheck(): Promise<typeof import('fast-check')> {
  return await import('fast-check');
}

export async function runTests(spec: Side, target: ServerTarget, options: TestOptions): Promise<CaseResult[]> {
  const fc = await loadFastCheck();
  const session = await Session.open(target, options.timeoutMs);
  try {
    const ctx: ToolContext = { fc, session, options, budget: new Budget(options.maxCalls), ajvs: new Map() };
    const results: CaseResult[] = [listsCase(spec, await session.dump(), describeTarget(target))];
    // Examples first: the calls the spec's authors wrote down say most about a broken handler.
    const examples = [...spec.model.tools.filter((t) => t.examples.length > 0).map((t) => () => toolExampleCases(ctx, t)), ...spec.model.prompts.filter((p) => p.examples.length > 0).map((p) => () => promptExampleCases(ctx, p))];
    results.push(...(await pool(examples, options.concurrency)).flat());
    const jobs = itemJobs(ctx, spec.model, target);
    results.push(...(await pool(jobs, options.concurrency)).flat());
    return results;
  } finally {
    await session.close();
  }
}

/** One job per tool, prompt and template; each gets its own seed from the run's, so the order they run in changes nothing. */
function itemJobs(ctx: ToolContext, model: ServerModel, target: ServerTarget): (() => Promise<CaseResult[]>)[] {
  const seed = (i: number) => (ctx.options.seed + i * 7919) | 0;
  // Header rules exist only on a 2026-07-28 connection over HTTP.
  const wireUrl = target.kind === 'http' && ctx.session.protocolVersion === '2026-07-28' ? target.url : undefined;
  const jobs: (() => Promise<CaseResult[]>)[] = model.tools.map((tool, i) => async () => {
    const skip = skipReason(tool, ctx.options);
    const item = `tool ${tool.name}`;
    if (skip !== undefined) return [{ item, check: 'valid', status: 'skipped', calls: 0, message: skip }];
    const p = prepareTool(tool, ctx.ajvs);
    const out = [await validCheck(ctx, p, seed(i)), await invalidCheck(ctx, p, seed(i) + 1)];
    // A tool the tester cannot call (a client capability it lacks) cannot be called with wrong headers either.
    if (wireUrl !== undefined && out[0]!.status !== 'skipped') out.push(await wireCase(ctx, p, wireUrl, seed(i) + 2));
    return out;
  });
  const base = model.tools.length;
  const excluded = (item: string, check: CaseResult['check']): CaseResult[] => [{ item, check, status: 'skipped', calls: 0, message: 'excluded (--exclude)' }];
  model.prompts.forEach((prompt, i) => jobs.push(async () => (excludes(ctx.options, prompt.name) ? excluded(`prompt ${prompt.name}`, 'prompt') : promptChecks(ctx, prompt, seed(base + i)))));
  const tBase = base + model.prompts.length;
  model.resourceTemplates.forEach((t, i) => jobs.push(async () => (excludes(ctx.options, t.uriTemplate) || excludes(ctx.options, t.name) ? excluded(`resource template ${t.uriTemplate}`, 'resource') : [await templateCheck(ctx, t, seed(tBase + i))])));
  return jobs;
}

/** Runs the jobs with at most `size` at once, results in job order. */
export async function pool<T>(jobs: readonly (() => Promise<T>)[], size: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(size, jobs.length)) }, worker));
  return results;
}
