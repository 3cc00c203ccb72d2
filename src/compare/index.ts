// Compare stage (after model): two sets of server models in, findings out. Never reads files.
import { compareServers } from './contract.js';
import { allRules, RULES, type Category, type Severity } from './rules.js';
import type { Finding, Side } from './types.js';

export { allRules, RULES, type Category, type Rule, type Severity } from './rules.js';
export type { Finding, ItemKind, Locator, Position, Side } from './types.js';
export { subsetViolations, type Violation, type ViolationKind } from './schema-subset.js';

export interface CompareOptions {
  /** Categories whose breaking findings fail the run (default: callers, typed-clients, infrastructure). */
  readonly failOn?: readonly Category[];
  /** Rule ids or categories to leave out, each with the reason the config gives; with `only`, for those items only. */
  readonly ignore?: readonly { readonly rule: string; readonly reason: string; readonly only?: readonly string[] }[];
}

export const DEFAULT_FAIL_ON: readonly Category[] = ['callers', 'typed-clients', 'infrastructure'];

export interface Comparison {
  readonly findings: readonly Finding[];
  /** Findings that fail the run: breaking severity in a failing category, not ignored. */
  readonly failing: readonly Finding[];
  readonly ignored: number;
}

/**
 * Servers pair up by `server.name`, whichever file declares them (a renamed spec file is the same server).
 * One spec on each side is the one server even when renamed. Otherwise one present on the old side only
 * is a removed server (failing), one on the new side only an added one.
 */
export function compareSides(olds: readonly Side[], news: readonly Side[], options: CompareOptions = {}): Comparison {
  const all: Finding[] = [];
  const pairs = pairServers(olds, news);
  for (const [o, n] of pairs) all.push(...compareServers(o, n));
  for (const o of olds) {
    if (pairs.some(([x]) => x === o)) continue;
    all.push({ rule: RULES.SERVER_REMOVED, message: `server "${o.model.name}" was removed (no spec of the new version declares it)`, ...at('old', o), subjects: [o.model.name] });
  }
  for (const n of news) {
    if (pairs.some(([, y]) => y === n)) continue;
    all.push({ rule: RULES.SERVER_ADDED, message: `server "${n.model.name}" was added`, ...at('new', n), subjects: [n.model.name] });
  }
  const ignore = options.ignore ?? [];
  const isIgnored = (f: Finding) => ignore.some((i) => (i.rule === f.rule.id || i.rule === f.rule.category) && (i.only === undefined || i.only.some((x) => f.subjects?.includes(x))));
  const findings = all.filter((f) => !isIgnored(f)).sort(order);
  const failOn = options.failOn ?? DEFAULT_FAIL_ON;
  return { findings, failing: findings.filter((f) => (f.rule.severity === 'breaking' || f.rule.severity === 'unproven') && failOn.includes(f.rule.category)), ignored: all.length - findings.length };
}

function pairServers(olds: readonly Side[], news: readonly Side[]): [Side, Side][] {
  const pairs: [Side, Side][] = [];
  for (const n of news) {
    const o = olds.find((x) => x.model.name === n.model.name);
    if (o !== undefined) pairs.push([o, n]);
  }
  // One spec on each side (`--base FILE`): its server, even renamed.
  if (pairs.length === 0 && olds.length === 1 && news.length === 1) pairs.push([olds[0]!, news[0]!]);
  return pairs;
}

function at(side: 'old' | 'new', s: Side): Partial<Pick<Finding, 'old' | 'new'>> {
  const p = s.locate(undefined, ['server', 'name']) ?? s.locate(undefined, []);
  return p === undefined ? {} : { [side]: p };
}

const RANK: Record<Severity, number> = { breaking: 0, unproven: 1, 'non-breaking': 2, info: 3 };

function order(a: Finding, b: Finding): number {
  const pa = a.new ?? a.old;
  const pb = b.new ?? b.old;
  return RANK[a.rule.severity] - RANK[b.rule.severity] || (pa?.file ?? '').localeCompare(pb?.file ?? '') || (pa?.line ?? 0) - (pb?.line ?? 0) || (pa?.column ?? 0) - (pb?.column ?? 0) || a.rule.id.localeCompare(b.rule.id) || a.message.localeCompare(b.message);
}

/** Known rule ids and categories (what a config's ignore list may name). */
export function knownRuleNames(): Set<string> {
  return new Set([...allRules().map((r) => r.id), 'callers', 'typed-clients', 'infrastructure', 'unprovable', 'model-facing', 'additions']);
}
