// The property checks of one tool: valid arguments (from its input schema) and broken ones (mutations of
// valid ones), each call judged against the spec; the failing value is the one fast-check shrank.
import { createAjvFor, dialectOf, type AnyAjv, type Dialect } from '@mcpgen/runtime/shared';
import type { ToolModel } from '../model/ir.js';
import { mutationsOf } from './invalid-inputs.js';
import { judgeInvalid, judgeValid, type OutputCheck, type Verdict } from './judge.js';
import { runProperty, type Budget } from './property.js';
import { schemaArbitrary } from './schema-arbitrary.js';
import type { Session } from './session.js';
import { excludes, type CaseResult, type ReplayCase, type TestOptions } from './types.js';

type FastCheck = typeof import('fast-check');
type Args = Record<string, unknown>;

export interface ToolContext {
  readonly fc: FastCheck;
  readonly session: Session;
  readonly options: TestOptions;
  readonly budget: Budget;
  /** The run's ajvs, one per dialect, shared by its tools (validatorOf). */
  readonly ajvs: RunAjvs;
}

/**
 * A fresh ajv compiles its dialect's meta-schema before the first schema it is given (about 33 ms on this
 * machine; 1.6 ms for a small tool schema after that): one per dialect serves every schema of a run.
 */
export type RunAjvs = Map<Dialect, AnyAjv>;
const AJV_OPTIONS = { strict: false, allErrors: false, validateFormats: true };

export type Validate = (value: unknown) => string | undefined;

/** An ajv validator of the schema's own dialect; the answer is ajv's first error, as a line. */
export function validatorOf(schema: object, ajvs: RunAjvs = new Map()): Validate {
  const dialect = dialectOf(schema) ?? '2020-12';
  let ajv = ajvs.get(dialect);
  if (ajv === undefined) ajvs.set(dialect, (ajv = createAjvFor(dialect, AJV_OPTIONS)));
  let validate: ReturnType<AnyAjv['compile']>;
  try {
    validate = ajv.compile(schema);
  } catch {
    // e.g. an $id another schema of the run registered first: a fresh ajv, as every schema once had (a bad schema throws again).
    validate = createAjvFor(dialect, AJV_OPTIONS).compile(schema);
  }
  return (value) => (validate(value) ? undefined : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim()).join('; ') || 'invalid');
}

export interface PreparedTool {
  readonly tool: ToolModel;
  readonly input: Validate;
  readonly output: OutputCheck | undefined;
  readonly headerArgs: ReadonlySet<string>;
}

export function prepareTool(tool: ToolModel, ajvs: RunAjvs): PreparedTool {
  return {
    tool,
    input: validatorOf(tool.inputSchema, ajvs),
    output: tool.outputSchema === undefined ? undefined : validatorOf(tool.outputSchema, ajvs),
    headerArgs: new Set(tool.headers.map((h) => h.path[0]!)),
  };
}

export function callValid(ctx: ToolContext, p: PreparedTool, args: unknown): Promise<Verdict> {
  return ctx.session.callTool(p.tool, args).then((o) => judgeValid(o, ctx.options.timeoutMs, p.output, ctx.options.allowToolErrors));
}

export function callInvalid(ctx: ToolContext, p: PreparedTool, args: unknown, argument: string): Promise<Verdict> {
  return ctx.session.callTool(p.tool, args).then((o) => judgeInvalid(o, ctx.options.timeoutMs, argument, p.headerArgs.has(argument)));
}

/** Valid arguments: fast-check values of the input schema that ajv accepts. */
export async function validCheck(ctx: ToolContext, p: PreparedTool, seed: number): Promise<CaseResult> {
  const arb = schemaArbitrary(ctx.fc, p.tool.inputSchema);
  const r = await runProperty(ctx.fc, arb, (v) => p.input(v) === undefined, (v) => callValid(ctx, p, v), { seed, runs: ctx.options.runs, budget: ctx.budget });
  return toCase(`tool ${p.tool.name}`, 'valid', r, (v) => ({ kind: 'tool', name: p.tool.name, check: 'valid', arguments: v }));
}

/** Invalid arguments: a valid value with one mutation the schema refuses. */
export async function invalidCheck(ctx: ToolContext, p: PreparedTool, seed: number): Promise<CaseResult> {
  const item = `tool ${p.tool.name}`;
  const mutations = mutationsOf(p.tool.inputSchema as Args);
  if (mutations.length === 0) return { item, check: 'invalid', status: 'skipped', calls: 0, message: 'the input schema gives nothing to break (no required, typed or bounded top-level property)' };
  const { fc } = ctx;
  const valid = schemaArbitrary(fc, p.tool.inputSchema).filter((v) => typeof v === 'object' && v !== null && !Array.isArray(v)) as import('fast-check').Arbitrary<Args>;
  // Runs cycle through the mutations so each is tried; fast-check shrinks the valid value under it.
  const arb = fc.tuple(valid, fc.nat({ max: mutations.length - 1 })).map(([base, i]) => ({ args: mutations[i]!.apply(base), i }));
  const runs = Math.max(ctx.options.runs, mutations.length);
  const r = await runProperty(fc, arb, (v) => p.input(v.args) !== undefined, (v) => callInvalid(ctx, p, v.args, mutations[v.i]!.argument), { seed, runs, budget: ctx.budget });
  const described = r.status === 'failed' ? { ...r, message: `${mutations[r.value.i]!.what} ${JSON.stringify(mutations[r.value.i]!.argument)}: ${r.message}` } : r;
  return toCase(item, 'invalid', described, (v) => ({ kind: 'tool', name: p.tool.name, check: 'invalid', arguments: v.args, argument: mutations[v.i]!.argument, what: mutations[v.i]!.what }));
}

export function toCase<T>(item: string, check: CaseResult['check'], r: Awaited<ReturnType<typeof runProperty<T>>>, replay: (value: T) => ReplayCase): CaseResult {
  if (r.status === 'passed') return { item, check, status: 'passed', calls: r.calls };
  if (r.status === 'skipped') return { item, check, status: 'skipped', calls: r.calls, message: r.reason };
  return { item, check, status: 'failed', calls: r.calls, message: r.message, replay: replay(r.value), shrinks: r.shrinks };
}

/** Why a tool is not called at all (--include-destructive, --read-only-only), or undefined. */
export function skipReason(tool: ToolModel, options: TestOptions): string | undefined {
  const a = tool.annotations;
  if (excludes(options, tool.name)) return 'excluded (--exclude)';
  if (options.readOnlyOnly && a?.readOnlyHint !== true) return 'not marked readOnlyHint (--read-only-only)';
  if (a?.destructiveHint === true && !options.includeDestructive) return 'destructiveHint: true (pass --include-destructive to call it)';
  // Answering a user prompt the tester cannot know the right answer to would test the tester, not the tool.
  if (tool.elicit.length > 0) return `asks the user for input (elicit: ${tool.elicit.map((e) => e.key).join(', ')}), which the tester does not answer`;
  return undefined;
}
