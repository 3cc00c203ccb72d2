// One property run by fast-check: generated values, each judged by a call to the server; on a failure
// fast-check shrinks the value (every try another real call) down to a minimal one that still fails.
import type { Arbitrary } from 'fast-check';
import { NotTestable, type Verdict } from './judge.js';

type FastCheck = typeof import('fast-check');

/** The run's call budget (--max-calls), shared by every check. */
export class Budget {
  used = 0;
  constructor(readonly max: number) {}
  get left(): number {
    return Math.max(0, this.max - this.used);
  }
  take(): boolean {
    if (this.used >= this.max) return false;
    this.used++;
    return true;
  }
}

export type PropertyResult<T> =
  | { readonly status: 'passed'; readonly calls: number }
  | { readonly status: 'skipped'; readonly calls: number; readonly reason: string }
  | { readonly status: 'failed'; readonly calls: number; readonly value: T; readonly message: string; readonly shrinks: number };

export interface PropertySettings {
  readonly seed: number;
  readonly runs: number;
  readonly budget: Budget;
}

export async function runProperty<T>(fc: FastCheck, arb: Arbitrary<T>, applicable: (value: T) => boolean, judge: (value: T) => Promise<Verdict>, settings: PropertySettings): Promise<PropertyResult<T>> {
  const messages = new Map<string, string>();
  let calls = 0;
  const numRuns = Math.min(settings.runs, settings.budget.left);
  if (numRuns === 0) return { status: 'skipped', calls, reason: 'the --max-calls budget is spent' };
  let untestable: string | undefined;
  const property = fc.asyncProperty(arb, async (value) => {
    fc.pre(applicable(value));
    if (untestable !== undefined) return true;
    // Once the budget is spent (while shrinking), a value counts as passing: shrinking stops where it is.
    if (!settings.budget.take()) return true;
    calls++;
    const problem = await judge(value);
    if (problem instanceof NotTestable) {
      untestable = problem.reason;
      return true;
    }
    if (problem !== undefined) messages.set(JSON.stringify(value), problem);
    return problem === undefined;
  });
  const out = await fc.check(property, { seed: settings.seed, numRuns, maxSkipsPerRun: 50, endOnFailure: false });
  if (untestable !== undefined) return { status: 'skipped', calls, reason: untestable };
  if (!out.failed) return { status: 'passed', calls };
  if (out.counterexample === null) return { status: 'skipped', calls, reason: 'fast-check generated no value the schema accepts (schema keywords it cannot aim at, see docs/testing.md)' };
  const value = out.counterexample[0] as T;
  const message = messages.get(JSON.stringify(value)) ?? (out.errorInstance instanceof Error ? out.errorInstance.message : 'failed');
  return { status: 'failed', calls, value, message, shrinks: out.numShrinks };
}
