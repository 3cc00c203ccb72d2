// Spec strings reach the generated README (handlebars) escaped in the emit layer: names stay one code
// span whatever backticks they hold, prose carries no HTML or formatting, and nothing invisible
// (control characters, U+2028/9, bidi overrides) survives raw.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { readme } from '../../src/emit/package-files.js';
import { checkText } from '../helpers.js';

const NASTY = 'a`b``c <img src=x onerror=alert(1)> *em* [x](javascript:1) ~~s~~ | \u0000\u0007\u001b\u2028\u2029\u202e\u007f end';

/** CommonMark 6.1 code spans of one line: [literal content, rest of the line after it]. */
function codeSpans(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < line.length) {
    if (line[i] === '\\') {
      i += 2;
      continue;
    }
    if (line[i] !== '`') {
      i++;
      continue;
    }
    let n = 0;
    while (line[i + n] === '`') n++;
    // The closing run must have exactly n backticks.
    let j = i + n;
    let close = -1;
    while (j < line.length) {
      if (line[j] === '`') {
        let m = 0;
        while (line[j + m] === '`') m++;
        if (m === n) {
          close = j;
          break;
        }
        j += m;
      } else j++;
    }
    if (close === -1) throw new Error(`unclosed code span in ${JSON.stringify(line)}`);
    let content = line.slice(i + n, close);
    if (content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '') content = content.slice(1, -1);
    out.push(content);
    i = close + n;
  }
  return out;
}

const visible = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe('generated README', () => {
  it('keeps every name one code span, and prose free of HTML, formatting and invisible characters', () => {
    const spec = {
      mcpgen: 1,
      server: { name: 'nasty', version: '1.0.0', title: NASTY, description: NASTY },
      tools: [{ name: 'echo', description: NASTY, input: { type: 'object', properties: { v: { type: 'string', 'x-mcp-header': 'A`B' } } } }],
      resourceTemplates: [{ uriTemplate: 'test://t/{id}', name: 'tpl', description: NASTY }],
      prompts: [{ name: NASTY, description: NASTY }, { name: '`start', title: 'end`' }],
    };
    // yaml's stringify leaves DEL raw inside the double-quoted strings its other control characters
    // force, and raw DEL is not YAML (MCPG001): write it as the escape a person would.
    const result = checkText(stringify(spec).replace(/\u007f/g, '\\x7f'));
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const text = readme(result.models[0]!);
    // Nothing raw that a renderer would act on or hide.
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029\u202e]/);
    const lines = text.split('\n');
    // Fenced code blocks are the template's own examples (no spec text reaches them): not prose.
    let fenced = false;
    const outsideFences = lines.filter((l) => (l.startsWith('```') ? ((fenced = !fenced), false) : !fenced));
    // Outside code spans (where HTML is literal text) no tag and no link.
    const prose = outsideFences.map((l) => codeSpans(l).reduce((rest, span) => rest.replace(span, ''), l)).join('\n');
    expect(prose).not.toContain('<img');
    expect(prose).not.toMatch(/(?<!\\)\](?=\()/);
    const toolLine = lines.find((l) => l.startsWith('- `echo`'))!;
    expect(codeSpans(toolLine)).toEqual(['echo', 'Mcp-Param-A`B']);
    const promptLines = lines.slice(lines.indexOf('## Prompts') + 1).filter((l) => l.startsWith('- '));
    expect(promptLines).toHaveLength(2);
    // The prompt's name comes back exactly (invisible characters spelled \uXXXX); the description, with its
    // own backticks escaped, adds no code span.
    expect(codeSpans(promptLines[0]!)).toEqual([visible(NASTY)]);
    expect(codeSpans(promptLines[1]!)).toEqual(['`start']);
    expect(promptLines[1]).toContain(' — end\\`');
    // Prose: HTML as entities, formatting characters escaped, one line.
    const title = lines.find((l) => l.startsWith('# '))!;
    expect(title).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(title).toContain('\\*em\\* \\[x\\](javascript:1) \\~\\~s\\~\\~ \\|');
    expect(codeSpans(title)).toEqual([]);
  });

  it('shows each example under its tool and prompt: prose escaped, values one JSON code span each', () => {
    const spec = {
      mcpgen: 1,
      server: { name: 'ex', version: '1.0.0' },
      tools: [{
        name: 'echo',
        input: { type: 'object', properties: { v: { type: 'string' } } },
        output: { type: 'object', properties: { v: { type: 'string' } } },
        examples: [{ name: NASTY, description: NASTY, arguments: { v: NASTY }, result: { v: '``' } }, { arguments: { v: '' }, isError: true }, {}],
      }],
      prompts: [{ name: 'p', arguments: [{ name: 'a' }], examples: [{ name: 'one', arguments: { a: 'x`y' }, messages: [{ role: 'user' }] }] }],
    };
    const result = checkText(stringify(spec).replace(/\u007f/g, '\\x7f'));
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const text = readme(result.models[0]!);
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029\u202e]/);
    const lines = text.split('\n');
    const examples = lines.filter((l) => l.startsWith('  - example'));
    expect(examples).toHaveLength(4);
    const [nasty, error, bare, prompt] = examples as [string, string, string, string];
    // The name and description are prose: no HTML, no formatting, no code span of their own.
    expect(nasty).toMatch(/^  - example \*\*a\\`b\\`\\`c &lt;img src=x onerror=alert\(1\)&gt; \\\*em\\\* /);
    const spans = codeSpans(nasty);
    expect(spans).toHaveLength(3);
    // The values come back exactly as JSON (invisible characters as \uXXXX escapes, which JSON reads back).
    expect(JSON.parse(spans[0]!)).toEqual({ v: NASTY });
    expect(spans[1]).toBe('structuredContent');
    expect(JSON.parse(spans[2]!)).toEqual({ v: '``' });
    expect(error).toBe('  - example: `{"v":""}` → a tool error (`isError: true`)');
    expect(bare).toBe('  - example: `{}` → a result, not a tool error');
    expect(prompt).toBe('  - example **one**: ``{"a":"x`y"}`` → messages contain `[{"role":"user"}]`');
    expect(text).toContain('`npx mcpgen test` calls each one first');
  });
});

