// Issue 47: the server's main thread reads the spec for hover and the other requests through the entry
// cache (server.ts turns it on): after an edit only the edited entry is read anew, and the cache is swept
// at the next edit after a read, so it stays one spec big. Two edits with no read between keep the entries.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Project } from '../../src/lsp/project.js';
import { enableEntryCache } from '../../src/parse/entry-cache.js';
import { tempDir } from '../support/root.js';

const { syntheticSpec } = (await import(new URL('../../bench/synthetic-spec.mjs', import.meta.url).href)) as { syntheticSpec: (tools: number, name: string) => string };

describe('the server’s spec reads (issue 47)', () => {
  it('reuse every entry an edit left alone, across edits with and without reads between', () => {
    const dir = tempDir('mcpgen-lsp-reads-');
    mkdirSync(join(dir, 'specs'));
    const file = join(dir, 'specs/big.yaml');
    let text = syntheticSpec(150, 'big');
    writeFileSync(file, text);
    enableEntryCache();
    const project = new Project(dir);
    const tools = (): unknown[] => (project.specOf(file)!.root.value as { tools: unknown[] }).tools;
    const first = tools();
    const retitle = (n: number): void => {
      text = text.replace(`title: Tool ${n}\n`, `title: Tool ${n}!\n`);
      project.setText(file, text);
    };
    retitle(3);
    retitle(4); // no read between: the entries the first read used stay
    const second = tools();
    expect(second[100]).toBe(first[100]);
    expect(second[3]).not.toBe(first[3]);
    expect((second[4] as { title: string }).title).toBe('Tool 4!');
    retitle(5);
    const third = tools();
    expect(third[100]).toBe(first[100]);
    expect(third[4]).toBe(second[4]);
  });
});
