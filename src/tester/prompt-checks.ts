// Prompts and resource templates: prompts/get with generated arguments (and without a required one),
// resources/read of URIs expanded from generated variable values.
import { expandUriTemplate } from '@mcpgen/runtime/shared';
import type { PromptModel, ResourceTemplateModel } from '../model/ir.js';
import { judgeInvalid, judgePrompt, judgeResource, type Verdict } from './judge.js';
import { runProperty } from './property.js';
import { toCase, type ToolContext } from './tool-checks.js';
import type { CaseResult } from './types.js';

type Args = Record<string, string>;

function promptArgs(ctx: ToolContext, prompt: PromptModel) {
  const { fc } = ctx;
  const model: Record<string, import('fast-check').Arbitrary<string>> = {};
  for (const a of prompt.arguments) model[a.name] = fc.oneof(fc.string({ maxLength: 24 }), fc.string({ maxLength: 24, unit: 'binary' }));
  return fc.record(model, { requiredKeys: prompt.arguments.filter((a) => a.required).map((a) => a.name) }) as import('fast-check').Arbitrary<Args>;
}

export function callPrompt(ctx: ToolContext, name: string, args: Args): Promise<Verdict> {
  return ctx.session.getPrompt(name, args).then((o) => judgePrompt(o, ctx.options.timeoutMs));
}

export function callPromptMissing(ctx: ToolContext, name: string, args: Args, argument: string): Promise<Verdict> {
  return ctx.session.getPrompt(name, args).then((o) => judgeInvalid(o, ctx.options.timeoutMs, argument, false));
}

export async function promptChecks(ctx: ToolContext, prompt: PromptModel, seed: number): Promise<CaseResult[]> {
  const item = `prompt ${prompt.name}`;
  const settings = { seed, runs: ctx.options.runs, budget: ctx.budget };
  const arb = promptArgs(ctx, prompt);
  const valid = await runProperty(ctx.fc, arb, () => true, (v) => callPrompt(ctx, prompt.name, v), settings);
  const out = [toCase(item, 'prompt', valid, (v) => ({ kind: 'prompt', name: prompt.name, check: 'prompt', arguments: v }))];
  const required = prompt.arguments.filter((a) => a.required).map((a) => a.name);
  if (required.length === 0) return out;
  const missing = ctx.fc.tuple(arb, ctx.fc.constantFrom(...required)).map(([args, drop]) => ({ args: Object.fromEntries(Object.entries(args).filter(([k]) => k !== drop)), drop }));
  const r = await runProperty(ctx.fc, missing, () => true, (v) => callPromptMissing(ctx, prompt.name, v.args, v.drop), settings);
  out.push(toCase(item, 'prompt-missing', r.status === 'failed' ? { ...r, message: `without ${JSON.stringify(r.value.drop)}: ${r.message}` } : r, (v) => ({ kind: 'prompt', name: prompt.name, check: 'prompt-missing', arguments: v.args, argument: v.drop })));
  return out;
}

export function callResource(ctx: ToolContext, uri: string): Promise<Verdict> {
  return ctx.session.readResource(uri).then((o) => judgeResource(o, ctx.options.timeoutMs));
}

export async function templateCheck(ctx: ToolContext, template: ResourceTemplateModel, seed: number): Promise<CaseResult> {
  const { fc } = ctx;
  const item = `resource template ${template.uriTemplate}`;
  const model: Record<string, import('fast-check').Arbitrary<string>> = {};
  for (const v of template.variables) model[v.name] = fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/), fc.string({ minLength: 1, maxLength: 12, unit: 'binary' }));
  const arb = fc.record(model).map((vars) => expandUriTemplate(template.uriTemplate, vars));
  const r = await runProperty(fc, arb, () => true, (uri) => callResource(ctx, uri), { seed, runs: ctx.options.runs, budget: ctx.budget });
  return toCase(item, 'resource', r.status === 'failed' ? { ...r, message: `${r.value}: ${r.message}` } : r, (uri) => ({ kind: 'resourceTemplate', name: template.uriTemplate, check: 'resource', uri }));
}
