// Tools' and prompts' `examples:` in the IR: labels settled, defaults filled in (no arguments: `{}`;
// no `isError`: a result is expected), so the tester and the README read them as they are.
import type { RawPromptExample, RawToolExample } from '../validate/spec-types.js';
import { exampleLabel } from '../validate/rules/examples.js';
import type { PromptExampleModel, ToolExampleModel } from './ir.js';

export function toolExamples(raw: readonly RawToolExample[] | undefined): ToolExampleModel[] {
  return (raw ?? []).map((e, i) => ({ ...common(e, i), ...(e.result === undefined ? {} : { result: e.result }), isError: e.isError ?? false }));
}

export function promptExamples(raw: readonly RawPromptExample[] | undefined): PromptExampleModel[] {
  return (raw ?? []).map((e, i) => ({ ...common(e, i), ...(e.messages === undefined ? {} : { messages: e.messages }) }));
}

/** What every example has: its label, name and description as written, its arguments (`{}` when none). */
function common<A>(e: { readonly name?: string; readonly description?: string; readonly arguments?: A }, index: number) {
  return {
    label: exampleLabel(e.name, index),
    ...(e.name === undefined ? {} : { name: e.name }),
    ...(e.description === undefined ? {} : { description: e.description }),
    arguments: e.arguments ?? ({} as A),
  };
}
