// Just enough Markdown for the docs test: the pages, their fenced blocks, links and heading anchors.
// Not a Markdown parser: README and docs/ use fences at the start of a line and inline links only.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/root.js';

export interface Block {
  readonly page: string;
  /** The info string after the opening fence (`sh`, `yaml`, `ts`, or '' for plain text). */
  readonly lang: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly text: string;
}

export interface Link {
  readonly page: string;
  readonly line: number;
  readonly target: string;
}

/** README.md and every docs/*.md, as paths relative to the repository root. */
export function pages(): string[] {
  return ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

export function read(page: string): string {
  return readFileSync(join(ROOT, page), 'utf8');
}

/** The page split into fenced blocks and the prose lines between them (prose keeps its line numbers). */
export function parse(page: string): { blocks: Block[]; prose: { line: number; text: string }[] } {
  const blocks: Block[] = [];
  const prose: { line: number; text: string }[] = [];
  let open: { lang: string; line: number; lines: string[] } | undefined;
  read(page).split('\n').forEach((text, i) => {
    if (text.startsWith('```')) {
      if (open === undefined) open = { lang: text.slice(3).trim(), line: i + 1, lines: [] };
      else {
        blocks.push({ page, lang: open.lang, line: open.line, text: open.lines.join('\n') });
        open = undefined;
      }
    } else if (open !== undefined) open.lines.push(text);
    else prose.push({ line: i + 1, text });
  });
  if (open !== undefined) throw new Error(`${page}:${open.line}: fence never closed`);
  return { blocks, prose };
}

/** Inline links `[text](target)` outside fenced blocks and code spans. */
export function links(page: string): Link[] {
  const out: Link[] = [];
  for (const { line, text } of parse(page).prose) {
    const visible = text.replace(/`[^`]*`/g, '');
    for (const m of visible.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push({ page, line, target: m[1]! });
  }
  return out;
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
export function anchors(page: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text } of parse(page).prose) {
    const heading = /^#{1,6}\s+(.*)$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const slug = heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** One shell line as words: quotes kept together, a trailing `# comment` dropped. */
export function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.replace(/(^|\s)#.*$/, '').matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}
