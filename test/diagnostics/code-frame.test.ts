// Code frames under a diagnostic: a minified (one-line) description of 472 KB printed whole under each
// warning made one warning half a megabyte; long lines are clipped to a window around the column.
import { describe, expect, it } from 'vitest';
import { formatText } from '../../src/diagnostics/format.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';

const at = (line: number, column: number): Diagnostic => ({ code: 'MCPG191', severity: 'warning', message: 'm', file: 'd.json', line, column, path: '$' });

describe('code frames', () => {
  it('a long line is clipped around the column, the caret under it', () => {
    const line = `${'a'.repeat(200_000)}HERE${'b'.repeat(200_000)}`;
    const text = formatText([at(1, 200_001)], { color: false, sources: new Map([['d.json', line]]) });
    expect(text.length).toBeLessThan(600);
    const [, code, caret] = text.split('\n');
    expect(code).toContain('…');
    expect(code!.indexOf('HERE')).toBe(caret!.indexOf('^'));
  });

  it('short lines are printed whole', () => {
    const text = formatText([at(2, 3)], { color: false, sources: new Map([['d.json', 'one\ntwo: x\nthree']]) });
    expect(text).toBe('d.json:2:3 warning MCPG191 m\n  1 | one\n> 2 | two: x\n    |   ^\n  3 | three');
  });
});
