// The hover of a tool's name shows its examples as the generated README does: prose escaped, each value
// one JSON code span, what the answer must hold after the arrow.
import { describe, expect, it } from 'vitest';
import { hover } from '../../src/lsp/hover.js';
import { parseSource } from '../../src/parse/source.js';

const TEXT = `mcpgen: 1
server: { name: ex, version: 1.0.0 }
tools:
  - name: add
    examples:
      - name: small <b>numbers</b>
        description: Two and three.
        arguments: { a: 2, b: 3 }
        result: { sum: 5 }
      - arguments: { a: "\`x" }
        isError: true
      - 7
  - name: ping
`;

function hoverAt(text: string, needle: string): string {
  const source = parseSource('spec.yaml', new TextEncoder().encode(text)).source!;
  const h = hover(source, text.indexOf(needle) + 1, () => undefined);
  return (h?.contents as { value: string } | undefined)?.value ?? '';
}

describe('hover of a tool name', () => {
  it('lists its examples, escaped, after the method and types', () => {
    const text = hoverAt(TEXT, 'add');
    expect(text).toContain('handler method `add`');
    expect(text).toContain([
      'Examples (`mcpgen test` runs them first):',
      '- **small &lt;b&gt;numbers&lt;/b&gt;** (Two and three.): `{"a":2,"b":3}` → `structuredContent` contains `{"sum":5}`',
      '- example 2: ``{"a":"`x"}`` → a tool error (`isError: true`)',
    ].join('\n'));
    // The entry that is not an example (the format check reports it) is left out.
    expect(text.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(2);
  });

  it('says nothing of examples for a tool without them', () => {
    expect(hoverAt(TEXT, 'ping')).not.toContain('Examples');
  });
});
