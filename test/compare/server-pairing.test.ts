// Issue 45 #1: servers pair by server name, whichever file declares them; a server no spec of the new
// version declares is removed (failing), one new on the new side is added.
import { describe, expect, it } from 'vitest';
import { compareSides, type Side } from '../../src/compare/index.js';
import { checkText } from '../helpers.js';
import { sidesOf } from './support.js';

const spec = (name: string, ...tools: string[]) => `mcpgen: 1\nserver: { name: ${name}, version: 1.0.0 }\ntools:\n${tools.map((t) => `  - { name: ${t}, description: ${t} }`).join('\n')}\n`;
const sides = (...texts: string[]): Side[] => texts.flatMap((t) => sidesOf(checkText(t)));

// [case, old specs, new specs, rule ids reported (sorted), failing count]
const CASES: [string, string[], string[], string[], number][] = [
  ['a server gone (git rm of its spec)', [spec('a', 'x'), spec('b', 'y')], [spec('a', 'x')], ['SERVER_REMOVED'], 1],
  ['a server without tools gone', [spec('a', 'x'), 'mcpgen: 1\nserver: { name: b, version: 1.0.0 }\n'], [spec('a', 'x')], ['SERVER_REMOVED'], 1],
  ['a new server', [spec('a', 'x')], [spec('a', 'x'), spec('b', 'y')], ['SERVER_ADDED'], 0],
  ['specs in another order', [spec('a', 'x'), spec('b', 'y')], [spec('b', 'y'), spec('a', 'x')], [], 0],
  ['a renamed spec file with a tool removed pairs by server name', [spec('a', 'x'), spec('catalog', 'list', 'get')], [spec('catalog', 'list'), spec('a', 'x')], ['TOOL_REMOVED'], 1],
  ['one server replaced by another among several', [spec('a', 'x'), spec('b', 'y')], [spec('a', 'x'), spec('c', 'y')], ['SERVER_ADDED', 'SERVER_REMOVED'], 1],
  ['the one spec on each side, its server renamed', [spec('a', 'x')], [spec('z', 'x')], [], 0],
  ['an empty base: every server added', [], [spec('a', 'x')], ['SERVER_ADDED'], 0],
];

describe('servers across the two versions', () => {
  it.each(CASES)('%s', (_name, olds, news, rules, failing) => {
    const c = compareSides(sides(...olds), sides(...news));
    expect(c.findings.map((f) => f.rule.id).sort()).toEqual(rules);
    expect(c.failing).toHaveLength(failing);
  });

  it('a removed server points at its name in the old spec', () => {
    const c = compareSides(sides(spec('a', 'x'), spec('b', 'y')), sides(spec('a', 'x')));
    expect(c.findings[0]).toMatchObject({ message: expect.stringContaining('server "b" was removed'), old: { line: 2, path: expect.stringContaining('server') } });
  });
});
