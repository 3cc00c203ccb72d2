// The real version histories (issue 45): `npm run histories` writes what `mcpgen breaking` found between
// neighbouring published versions of MCP servers (test/fixtures/histories/findings.json); verdicts.json
// classifies every finding against the publisher's changelog and version number. This keeps the two, and
// the table in docs/breaking-changes.md, from drifting apart: a finding without a verdict, a verdict that
// covers nothing or a different number of findings, or a table row that no longer matches, fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/root.js';

interface Finding { rule: string; failing: boolean; message: string }
interface Pair { server: string; from: string; to: string; identical: boolean; findings: Finding[] }
interface Verdict { server: string; from: string; to: string; rule: string; count: number; verdict: 'true-break' | 'true-change' | 'false-positive'; reason: string }

const read = (file: string) => JSON.parse(readFileSync(join(ROOT, 'test/fixtures/histories', file), 'utf8'));
const servers = read('servers.json').servers as { id: string; package: string; versions: string[] }[];
const pairs = read('findings.json').pairs as Pair[];
const verdicts = read('verdicts.json').verdicts as Verdict[];

/** The table docs/breaking-changes.md must hold, row by row, from the two files. */
function tableRows(): string[] {
  return servers.map((s) => {
    const mine = pairs.filter((p) => p.server === s.id);
    const findings = mine.flatMap((p) => p.findings);
    const count = (v: Verdict['verdict']) => verdicts.filter((x) => x.server === s.id && x.verdict === v).reduce((n, x) => n + x.count, 0);
    return `| ${s.package} | ${s.versions[0]} … ${s.versions.at(-1)} (${s.versions.length}) | ${mine.filter((p) => p.findings.length === 0).length} of ${mine.length} | ${findings.length} | ${count('true-break')} | ${count('true-change')} | ${count('false-positive')} |`;
  });
}

describe('real version histories: every finding classified', () => {
  it('at least 5 servers, each with at least 6 consecutive versions, every neighbouring pair compared', () => {
    expect(servers.filter((s) => s.versions.length >= 6).length).toBeGreaterThanOrEqual(5);
    const expected = servers.flatMap((s) => s.versions.slice(1).map((to, i) => `${s.id} ${s.versions[i]} → ${to}`));
    expect(pairs.map((p) => `${p.server} ${p.from} → ${p.to}`)).toEqual(expected);
  });

  it('each verdict covers exactly its count of findings, of one pair and rule; each finding has one verdict', () => {
    for (const p of pairs) {
      const rules = [...new Set(p.findings.map((f) => f.rule))].sort();
      const mine = verdicts.filter((v) => v.server === p.server && v.from === p.from && v.to === p.to);
      expect(mine.map((v) => v.rule).sort(), `${p.server} ${p.from} → ${p.to}`).toEqual(rules);
      for (const v of mine) {
        const covered = p.findings.filter((f) => f.rule === v.rule);
        expect(covered.length, `${p.server} ${p.to} ${v.rule}`).toBe(v.count);
        // A true break is a failing finding; any other correct finding is a true change.
        if (v.verdict !== 'false-positive') expect(covered.every((f) => f.failing === (v.verdict === 'true-break')), `${p.server} ${p.to} ${v.rule}`).toBe(true);
        expect(v.reason.length).toBeGreaterThan(20);
      }
    }
    expect(verdicts.every((v) => pairs.some((p) => p.server === v.server && p.from === v.from && p.to === v.to))).toBe(true);
  });

  it('no false positive is left: the ones found were fixed, each with a test', () => {
    expect(verdicts.filter((v) => v.verdict === 'false-positive')).toEqual([]);
    for (const f of read('verdicts.json').fixed as { test: string }[]) {
      const [file, name] = f.test.split(': ');
      expect(readFileSync(join(ROOT, file!), 'utf8')).toContain(name);
    }
  });

  it('docs/breaking-changes.md shows the table as the files say', () => {
    const docs = readFileSync(join(ROOT, 'docs/breaking-changes.md'), 'utf8');
    for (const row of tableRows()) expect(docs).toContain(row);
  });
});
