// The generator's files never import themselves back through others (issue 49: a newcomer follows the
// pipeline load → validate → model → emit → write by its imports; a cycle hides which way it runs).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, sourceFiles } from '../support/import-graph.js';

const root = resolve(import.meta.dirname, '../..');
const graph = importGraph(root, sourceFiles(root, 'src'));

describe('generator imports', () => {
  it('has no import cycles between files of src/ (type-only imports count: they tie the files together too)', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('reads the imports it judges (a missed kind would hide an arrow)', () => {
    expect(graph.get('src/emit/server-file.ts')).toContain('src/emit/upstream-file.ts');
    expect(graph.get('src/validate/view.ts')).toContain('src/validate/located.ts');
  });
});
