// Output of `mcpgen breaking` / `mcpgen diff`: text for people, json for tools, markdown for PR comments,
// github for workflow commands (annotations on the pull request's files).
import type { Comparison, Finding, Position } from '../compare/index.js';

export type BreakingFormat = 'text' | 'json' | 'markdown' | 'github';

const where = (p: Position | undefined) => (p === undefined ? '' : `${p.file}:${p.line}:${p.column}`);

function label(f: Finding, failing: ReadonlySet<Finding>): string {
  return failing.has(f) ? (f.rule.severity === 'unproven' ? 'unproven (failing by failOn)' : 'breaking') : f.rule.severity === 'breaking' ? 'breaking (allowed by failOn)' : f.rule.severity;
}

export function formatComparison(c: Comparison, format: BreakingFormat): string {
  const failing = new Set(c.failing);
  if (format === 'json') return `${JSON.stringify({ breaking: c.failing.length, ignored: c.ignored, findings: c.findings.map((f) => toJson(f, failing)) }, null, 2)}\n`;
  if (format === 'github') return c.findings.map((f) => githubLine(f, failing)).join('');
  if (format === 'markdown') return markdown(c, failing);
  const lines = c.findings.map((f) => `${where(f.new ?? f.old)}: ${label(f, failing)} ${f.rule.id} [${f.rule.category}] ${f.message}${f.new && f.old ? ` (was ${where(f.old)})` : ''}`);
  return `${[...lines, summary(c)].join('\n')}\n`;
}

export function summary(c: Comparison): string {
  const unproven = c.findings.filter((f) => f.rule.severity === 'unproven' && !c.failing.includes(f)).length;
  const other = c.findings.length - c.failing.length - unproven;
  return `${c.failing.length} breaking change${c.failing.length === 1 ? '' : 's'}${unproven > 0 ? `, ${unproven} unproven` : ''}, ${other} other change${other === 1 ? '' : 's'}${c.ignored > 0 ? `, ${c.ignored} ignored by config` : ''}`;
}

function toJson(f: Finding, failing: ReadonlySet<Finding>) {
  return { rule: f.rule.id, category: f.rule.category, severity: f.rule.severity, failing: failing.has(f), message: f.message, why: f.rule.why, ...(f.new ? { new: f.new } : {}), ...(f.old ? { old: f.old } : {}) };
}

/** GitHub workflow command escaping: data escapes %, CR, LF; property values also `:` and `,`. */
export function escapeData(s: string): string {
  return s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

export function escapeProperty(s: string): string {
  return escapeData(s).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

function githubLine(f: Finding, failing: ReadonlySet<Finding>): string {
  const level = failing.has(f) ? 'error' : f.rule.severity === 'breaking' || f.rule.severity === 'unproven' ? 'warning' : 'notice';
  // The annotation goes on the new file when the thing still exists there; a removal points at the old file.
  const p = f.new ?? f.old;
  const props = p === undefined ? [] : [`file=${escapeProperty(p.file)}`, `line=${p.line}`, `col=${p.column}`];
  props.push(`title=${escapeProperty(`${f.rule.id} (${f.rule.category})`)}`);
  return `::${level} ${props.join(',')}::${escapeData(`${f.message} — ${f.rule.why}`)}\n`;
}

function cell(s: string): string {
  return s.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function markdown(c: Comparison, failing: ReadonlySet<Finding>): string {
  const head = `### mcpgen breaking: ${summary(c)}\n\n`;
  if (c.findings.length === 0) return `${head}No changes to the contract.\n`;
  const rows = c.findings.map((f) => `| ${label(f, failing)} | \`${f.rule.id}\` | ${f.rule.category} | ${cell(f.message)} | ${cell(where(f.new))} | ${cell(where(f.old))} |`);
  return `${head}| severity | rule | category | change | new | old |\n|---|---|---|---|---|---|\n${rows.join('\n')}\n`;
}
