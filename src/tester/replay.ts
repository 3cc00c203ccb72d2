// Failing calls saved (the shrunk inputs) and sent again by `mcpgen test --replay FILE`, judged as before.
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import type { ServerTarget } from '../import/mcp/connect.js';
import type { PromptExampleModel, ServerModel, ToolExampleModel } from '../model/ir.js';
import { NotTestable, type Verdict } from './judge.js';
import { callPromptExample, callToolExample } from './example-checks.js';
import { callPrompt, callPromptMissing, callResource } from './prompt-checks.js';
import { Budget } from './property.js';
import { loadFastCheck } from './run.js';
import { Session } from './session.js';
import { callInvalid, callValid, prepareTool, type ToolContext } from './tool-checks.js';
import type { CaseResult, ReplayCase, TestOptions } from './types.js';
import { wireCase } from './wire-case.js';

const FORMAT = 'mcpgen-test-replay/1';

export function replayFileText(cases: readonly CaseResult[], seed: number): string {
  const failures = cases.flatMap((c) => (c.replay === undefined ? [] : [{ ...c.replay, message: c.message }]));
  return `${JSON.stringify({ format: FORMAT, seed, failures }, null, 2)}\n`;
}

export function readReplayFile(path: string): ReplayCase[] {
  let parsed: { format?: unknown; failures?: unknown };
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`--replay ${path}: ${(e as Error).message}`);
  }
  if (parsed.format !== FORMAT || !Array.isArray(parsed.failures)) throw new UsageError(`--replay ${path}: not a file \`mcpgen test\` saved (format ${FORMAT})`);
  return parsed.failures as ReplayCase[];
}

export async function runReplay(model: ServerModel, target: ServerTarget, cases: readonly ReplayCase[], options: TestOptions): Promise<CaseResult[]> {
  const session = await Session.open(target, options.timeoutMs);
  const ctx: ToolContext = { fc: await loadFastCheck(), session, options, budget: new Budget(Number.MAX_SAFE_INTEGER), ajvs: new Map() };
  try {
    const out: CaseResult[] = [];
    for (const c of cases) out.push(await replayOne(ctx, model, target, c));
    return out;
  } finally {
    await session.close();
  }
}

async function replayOne(ctx: ToolContext, model: ServerModel, target: ServerTarget, c: ReplayCase): Promise<CaseResult> {
  const item = c.kind === 'tool' ? `tool ${c.name}` : c.kind === 'prompt' ? `prompt ${c.name}` : `resource template ${c.name}`;
  const done = (problem: Verdict): CaseResult => {
    const base = { item, check: c.check, ...(c.example === undefined ? {} : { example: c.example }) };
    if (problem === undefined) return { ...base, status: 'passed', calls: 1 };
    if (problem instanceof NotTestable) return { ...base, status: 'skipped', calls: 1, message: problem.reason };
    return { ...base, status: 'failed', calls: 1, message: problem, replay: c };
  };
  // An example is sent again as the spec now writes it (found by its label): its expectations may have changed.
  if (c.check === 'example') {
    const owner = c.kind === 'tool' ? model.tools.find((t) => t.name === c.name) : model.prompts.find((p) => p.name === c.name);
    const example = owner?.examples.find((e) => e.label === c.example);
    if (owner === undefined || example === undefined) return { item, check: c.check, ...(c.example === undefined ? {} : { example: c.example }), status: 'skipped', calls: 0, message: 'the spec no longer has this example' };
    return done(owner.kind === 'tool' ? await callToolExample(ctx, prepareTool(owner, ctx.ajvs), example as ToolExampleModel) : await callPromptExample(ctx, owner, example as PromptExampleModel));
  }
  if (c.kind === 'tool') {
    const tool = model.tools.find((t) => t.name === c.name);
    if (tool === undefined) return { item, check: c.check, status: 'skipped', calls: 0, message: 'the spec no longer has this tool' };
    const p = prepareTool(tool, ctx.ajvs);
    if (c.check === 'wire') return target.kind === 'http' ? wireCase(ctx, p, target.url, 0, c.arguments as Record<string, unknown>) : { item, check: c.check, status: 'skipped', calls: 0, message: 'a wire check needs --url' };
    return done(c.check === 'invalid' ? await callInvalid(ctx, p, c.arguments, c.argument ?? '') : await callValid(ctx, p, c.arguments));
  }
  if (c.kind === 'prompt') {
    const args = (c.arguments ?? {}) as Record<string, string>;
    return done(c.check === 'prompt-missing' ? await callPromptMissing(ctx, c.name, args, c.argument ?? '') : await callPrompt(ctx, c.name, args));
  }
  return done(await callResource(ctx, c.uri ?? ''));
}
