// The server's lists against the spec: what the server publishes is read as `mcpgen import mcp` reads it,
// written as the spec the import would write, checked, and compared with the same comparison
// `mcpgen breaking` makes (spec = old side, server = new side: a tool the server lacks is "removed").
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareSides, type Finding, type Side } from '../compare/index.js';
import { hasErrors } from '../diagnostics/diagnostic.js';
import { dumpToYaml } from '../import/mcp/index.js';
import type { ServerDump } from '../import/mcp/read.js';
import { check } from '../pipeline.js';
import type { CaseResult } from './types.js';

// What the lists do not show the tester: task support is listed only to clients that declare the tasks
// extension (io.modelcontextprotocol/tasks), which it does not; the scopes a call needs are in no list.
const NOT_SEEN = new Set(['TASK_SUPPORT_CHANGED', 'TASK_SUPPORT_RELAXED', 'SCOPES_ADDED', 'SCOPES_REMOVED']);

export function listsCase(spec: Side, dump: ServerDump, source: string): CaseResult {
  // Skills (SEP-2640, the spec's `skills:` folder) and MCP Apps views (`apps:`) are listed as resources too.
  const skills = (spec.model.skills ?? []).length > 0;
  const views = new Set(spec.model.apps.map((a) => a.uri));
  const own = (r: Record<string, unknown>) => !(skills && String(r.uri).startsWith('skill://')) && !views.has(String(r.uri));
  const served = servedSide({ ...dump, resources: dump.resources.filter(own) }, source);
  if (typeof served === 'string') return { item: 'server', check: 'lists', status: 'failed', calls: 0, message: served };
  const comparison = compareSides([spec], [served]);
  // Prose-only differences (descriptions, titles) are `info`: reported, never failing.
  const wrong = comparison.findings.filter((f) => f.rule.severity !== 'info' && !NOT_SEEN.has(f.rule.id));
  if (wrong.length === 0) return { item: 'server', check: 'lists', status: 'passed', calls: 4 };
  return { item: 'server', check: 'lists', status: 'failed', calls: 4, message: `${wrong.length} difference(s) between the spec and what the server lists:\n${wrong.map(line).join('\n')}` };
}

function line(f: Finding): string {
  const at = f.old === undefined ? '' : ` (${f.old.file}:${f.old.line}:${f.old.column})`;
  return `  - ${f.rule.id}: ${f.message}${at}`;
}

/** The server's lists as a checked model, or why they cannot be one. */
function servedSide(dump: ServerDump, source: string): Side | string {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgen-test-'));
  try {
    const file = join(dir, 'served.yaml');
    writeFileSync(file, dumpToYaml(dump, source, false).yaml);
    const result = check([file], dir);
    const model = result.models[0];
    if (hasErrors(result.diagnostics) || model === undefined) return `what the server lists does not make a valid spec: ${result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.message}`).slice(0, 3).join('; ')}`;
    return { model, locate: () => undefined };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
