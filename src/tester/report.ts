// `mcpgen test` reporters: text (people), json (scripts), junit (CI test views).
import { caseTitle, type CaseResult } from './types.js';

export type Reporter = 'text' | 'json' | 'junit';

export interface Summary {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly calls: number;
}

export function summarize(cases: readonly CaseResult[]): Summary {
  const count = (s: CaseResult['status']) => cases.filter((c) => c.status === s).length;
  return { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), calls: cases.reduce((n, c) => n + c.calls, 0) };
}

export interface ReportInput {
  readonly cases: readonly CaseResult[];
  /** The command that sends the failing calls again (`--replay FILE`), when any failed and were saved. */
  readonly replayCommand?: string;
  readonly seed: number;
  readonly seconds: number;
}

export function formatReport(input: ReportInput, reporter: Reporter): string {
  if (reporter === 'json') return `${JSON.stringify({ summary: summarize(input.cases), seed: input.seed, seconds: input.seconds, cases: input.cases, ...(input.replayCommand === undefined ? {} : { replay: input.replayCommand }) }, null, 2)}\n`;
  if (reporter === 'junit') return junit(input);
  return text(input);
}

function text(input: ReportInput): string {
  const lines: string[] = [];
  for (const c of input.cases) {
    const mark = c.status === 'passed' ? 'ok  ' : c.status === 'failed' ? 'FAIL' : 'skip';
    lines.push(`${mark} ${c.item}: ${caseTitle(c)}${c.calls > 0 ? ` (${c.calls} calls)` : ''}`);
    if (c.message !== undefined && c.status !== 'passed') lines.push(...c.message.split('\n').map((l) => `       ${l}`));
    if (c.replay !== undefined) {
      const input = c.replay.uri ?? c.replay.arguments;
      lines.push(`       ${c.shrinks === undefined ? 'input' : `minimal input (shrunk in ${c.shrinks} steps)`}: ${JSON.stringify(input)}`);
    }
  }
  const s = summarize(input.cases);
  lines.push('', `${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped (${s.calls} calls, seed ${input.seed}, ${input.seconds.toFixed(1)} s)`);
  if (input.replayCommand !== undefined) lines.push(`to send the failing calls again: ${input.replayCommand}`);
  return `${lines.join('\n')}\n`;
}

function xml(s: string): string {
  // XML 1.0 allows neither control characters nor lone surrogates: they are shown as \uXXXX.
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

function junit(input: ReportInput): string {
  const s = summarize(input.cases);
  const cases = input.cases.map((c) => {
    const open = `    <testcase classname="${xml(c.item)}" name="${xml(caseTitle(c))}" time="0">`;
    if (c.status === 'passed') return `${open}</testcase>`;
    if (c.status === 'skipped') return `${open}<skipped message="${xml(c.message ?? '')}"/></testcase>`;
    const detail = [c.message ?? '', c.replay === undefined ? '' : `minimal input: ${JSON.stringify(c.replay.uri ?? c.replay.arguments)}`, input.replayCommand ?? ''].filter((l) => l !== '').join('\n');
    return `${open}<failure message="${xml((c.message ?? '').split('\n')[0]!)}">${xml(detail)}</failure></testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${input.cases.length}" failures="${s.failed}" skipped="${s.skipped}" time="${input.seconds.toFixed(3)}">`,
    `  <testsuite name="mcpgen test" tests="${input.cases.length}" failures="${s.failed}" skipped="${s.skipped}" time="${input.seconds.toFixed(3)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
