// `mcpgen breaking` on large specs (read in pieces, ≥ 128 KB): the old version's check reuses the new one's
// work for every tool whose text is unchanged, and the compare stage skips a tool whose IR is that very
// object (issue 45 #9). What must still hold: a `$defs` change reaches every unchanged tool that refers to it,
// both versions' positions are those of the whole document, and a change in one tool among hundreds is found
// whichever side reads its file first.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { tempDir } from '../support/root.js';
import { run } from './breaking-repo.js';

const TOOLS = 400;

function spec(options: { windowRequired?: string[]; extra?: number } = {}): string {
  const lines = ['mcpgen: 1', 'server: { name: big, version: 1.0.0 }', '$defs:', '  Window:', '    type: object', '    properties:', '      from: { type: string }', '      to: { type: string }', `    required: [${(options.windowRequired ?? ['from']).join(', ')}]`, 'tools:'];
  for (let i = 0; i < TOOLS; i++) {
    const name = `tool_${String(i).padStart(4, '0')}`;
    lines.push(`  - name: ${name}`, `    description: Tool number ${i}, which looks things up in a store of items and answers with what it found.`, '    input:', '      type: object', '      properties:');
    lines.push('        id: { type: string, minLength: 1, description: "Identifier of the item to look up" }', '        count: { type: integer, minimum: 0, maximum: 1000 }', '        mode: { type: string, enum: [fast, safe, thorough] }');
    if (i % 2 === 0) lines.push('        window: { $ref: "#/$defs/Window" }');
    if (options.extra === i) lines.push('        legacy_flag: { type: boolean }');
    lines.push('      required: [id]');
  }
  return `${lines.join('\n')}\n`;
}

function compare(oldText: string, newText: string) {
  const dir = tempDir('mcpgen-breaking-large-');
  writeFileSync(join(dir, 'old.yaml'), oldText);
  writeFileSync(join(dir, 'new.yaml'), newText);
  const r = run(dir, ['breaking', '--base', 'old.yaml', 'new.yaml', '--format', 'json']);
  return { code: r.code, findings: (JSON.parse(r.stdout || '{"findings":[]}') as { findings: { rule: string; message: string; new?: { line: number; path: string }; old?: { line: number; path: string } }[] }).findings, stderr: r.stderr };
}

describe('breaking on large specs: unchanged tools reused, nothing lost', () => {
  it('the texts are large enough to be read in pieces', () => {
    expect(spec().length).toBeGreaterThan(128 * 1024);
  });

  it('a $defs change reaches every tool that refers to it, though their texts are unchanged', () => {
    const r = compare(spec(), spec({ windowRequired: ['from', 'to'] }));
    expect(r.code).toBe(1);
    const required = r.findings.filter((f) => f.rule === 'INPUT_REQUIRED_ADDED');
    expect(required).toHaveLength(TOOLS / 2);
    expect(new Set(required.map((f) => f.message.split('"')[1]))).toEqual(new Set(Array.from({ length: TOOLS / 2 }, (_, i) => `tool_${String(i * 2).padStart(4, '0')}`)));
  });

  it('one argument removed among 400 tools: one finding, at the lines the whole document gives on both sides', () => {
    const oldText = spec({ extra: 257 });
    const newText = spec();
    const r = compare(oldText, newText);
    expect(r.code).toBe(1);
    expect(r.findings.map((f) => f.rule)).toEqual(['INPUT_PROPERTY_REMOVED']);
    const [f] = r.findings;
    const lineOf = (text: string, path: (string | number)[]) => {
      const doc = parseDocument(text, { keepSourceTokens: false });
      const node = doc.getIn(path, true) as { range: [number, number] };
      return text.slice(0, node.range[0]).split('\n').length;
    };
    expect(f!.old!.line).toBe(lineOf(oldText, ['tools', 257, 'input', 'properties', 'legacy_flag']));
    expect(f!.new!.path).toBe('tools[257].input');
    expect(f!.new!.line).toBe(lineOf(newText, ['tools', 257, 'input']));
  });

  it('the same text on both sides: no finding, exit 0', () => {
    const r = compare(spec(), spec());
    expect(r.code).toBe(0);
    expect(r.findings).toEqual([]);
  });
});
