// Issue 47: `mcpgen lsp` keeps no memory per edit. Its checks (check-worker.ts) run the --watch caches over
// the editor's texts: after each one-character edit of a large spec, the heap after a full GC must not
// grow by a text per edit. Before the fix each edit's re-parsed entry kept that edit's whole text alive
// (its strings were slices of it): ~20 texts over 20 edits. Bounded by count (texts' worth of bytes).
// The schema rules' outcomes by schema text must not grow either: keyed by the whole text, each newly
// broken tool's schema (its own descriptions) added an entry, one per edit for as long as the server ran.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { Project } from '../../src/lsp/project.js';
import { enableIncremental } from '../../src/pipeline.js';
import { schemaOutcomeEntries } from '../../src/validate/rules/json-schema.js';
import { tempDir } from '../support/root.js';

const { syntheticSpec } = (await import(new URL('../../bench/synthetic-spec.mjs', import.meta.url).href)) as { syntheticSpec: (tools: number, name: string) => string };

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGc = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

describe('memory across edits (issue 47)', () => {
  it('does not grow by a text per edit', () => {
    const dir = tempDir('mcpgen-lsp-memory-');
    mkdirSync(join(dir, 'specs'));
    const file = join(dir, 'specs/big.yaml');
    const text = syntheticSpec(250, 'big');
    writeFileSync(file, text);
    enableIncremental();
    const project = new Project(dir);
    const typos = [...text.matchAll(/\n {4}description: Synthetic tool number/g)].map((m) => m.index + '\n    descr'.length);
    let current = text;
    const edit = (n: number): void => {
      // One more tool's key mistyped per edit, from the last tool back (earlier offsets stay put): each
      // check re-reads exactly one entry, as after a keystroke.
      const at = typos[typos.length - 1 - n]!;
      current = current.slice(0, at) + current.slice(at + 1);
      project.setText(file, current);
      expect(project.check().diagnostics.length).toBe(n + 1);
    };
    for (let n = 0; n < 5; n++) edit(n);
    const before = heapAfterGc();
    const entries = schemaOutcomeEntries();
    for (let n = 5; n < 25; n++) edit(n);
    const grown = heapAfterGc() - before;
    expect(schemaOutcomeEntries()).toBe(entries);
    // One-byte characters: a text is text.length bytes. Leaking, 20 edits kept ~20 texts.
    expect(grown / text.length).toBeLessThan(5);
  });
});
