// The spec's `examples:`, run before any generated input: each is one call, judged by what the example
// expects (a result or a tool error, and the part of it it shows). A failure names the example and is
// saved for --replay like any other.
import type { PromptExampleModel, PromptModel, ToolExampleModel, ToolModel } from '../model/ir.js';
import { judgePromptExample, judgeToolExample, NotTestable, type Verdict } from './judge.js';
import { prepareTool, skipReason, type PreparedTool, type ToolContext } from './tool-checks.js';
import { excludes, type CaseResult, type ReplayCase } from './types.js';

export function callToolExample(ctx: ToolContext, p: PreparedTool, example: ToolExampleModel): Promise<Verdict> {
  return ctx.session.callTool(p.tool, example.arguments).then((o) => judgeToolExample(o, ctx.options.timeoutMs, example, p.output));
}

export function callPromptExample(ctx: ToolContext, prompt: PromptModel, example: PromptExampleModel): Promise<Verdict> {
  return ctx.session.getPrompt(prompt.name, { ...example.arguments }).then((o) => judgePromptExample(o, ctx.options.timeoutMs, example));
}

/** One case per example of the tool, in spec order; skipped (with the reason) when the tool is not called at all. */
export async function toolExampleCases(ctx: ToolContext, tool: ToolModel): Promise<CaseResult[]> {
  const item = `tool ${tool.name}`;
  const skip = skipReason(tool, ctx.options);
  if (skip !== undefined) return tool.examples.map((e) => ({ item, check: 'example', example: e.label, status: 'skipped', calls: 0, message: skip }));
  const p = prepareTool(tool, ctx.ajvs);
  const out: CaseResult[] = [];
  for (const e of tool.examples) {
    out.push(await exampleCase(ctx, item, e.label, () => callToolExample(ctx, p, e), { kind: 'tool', name: tool.name, check: 'example', arguments: e.arguments, example: e.label }));
  }
  return out;
}

export async function promptExampleCases(ctx: ToolContext, prompt: PromptModel): Promise<CaseResult[]> {
  const item = `prompt ${prompt.name}`;
  if (excludes(ctx.options, prompt.name)) return prompt.examples.map((e) => ({ item, check: 'example', example: e.label, status: 'skipped', calls: 0, message: 'excluded (--exclude)' }));
  const out: CaseResult[] = [];
  for (const e of prompt.examples) {
    out.push(await exampleCase(ctx, item, e.label, () => callPromptExample(ctx, prompt, e), { kind: 'prompt', name: prompt.name, check: 'example', arguments: e.arguments, example: e.label }));
  }
  return out;
}

/** One call within the run's budget, its verdict as a case. */
export async function exampleCase(ctx: ToolContext, item: string, label: string, call: () => Promise<Verdict>, replay: ReplayCase): Promise<CaseResult> {
  const base = { item, check: 'example', example: label } as const;
  if (!ctx.budget.take()) return { ...base, status: 'skipped', calls: 0, message: 'the --max-calls budget is spent' };
  const problem = await call();
  if (problem === undefined) return { ...base, status: 'passed', calls: 1 };
  if (problem instanceof NotTestable) return { ...base, status: 'skipped', calls: 1, message: problem.reason };
  return { ...base, status: 'failed', calls: 1, message: problem, replay };
}
