// Where an import note lands in a JSON description (src/import/openapi/notes.ts): at the key of the member
// its pointer names, at an array element's value, or at the nearest enclosing node that exists; a string
// segment never names an array element nor a number an object member; a duplicated key's first member counts.
import { describe, expect, it } from 'vitest';
import { noteDiagnostics, type ImportNote } from '../../src/import/openapi/notes.js';

const TEXT = [
  '{',
  '  "paths": {',
  '    "/a": { "get": { "parameters": [ { "name": "x" }, { "name": "y", "schema": { "format": "int32" } } ] } }',
  '  },',
  '  "dup": { "first": 1 },',
  '  "dup": { "second": 2 },',
  '  "list": [ 10, [ 20, 30 ] ]',
  '}',
].join('\n');

function at(pointer: (string | number)[]): [number, number] {
  const note: ImportNote = { code: 'MCPG191', pointer, message: 'm' };
  const [d] = noteDiagnostics([note], 'api.json', () => new TextEncoder().encode(TEXT));
  return [d!.line, d!.column];
}

describe('import notes in a JSON description', () => {
  it('land at the member key, the element, or the nearest enclosing node', () => {
    const line3 = TEXT.split('\n')[2]!;
    expect(at(['paths', '/a', 'get', 'parameters', 1, 'schema', 'format'])).toEqual([3, line3.indexOf('"format"') + 1]);
    expect(at(['paths', '/a', 'get', 'parameters', 1])).toEqual([3, line3.indexOf('{ "name": "y"') + 1]);
    // Absent below an existing node: the deepest one that exists.
    expect(at(['paths', '/a', 'get', 'parameters', 0, 'schema', 'type'])).toEqual([3, line3.indexOf('{ "name": "x"') + 1]);
    expect(at(['paths', '/a', 'get', 'parameters', '1'])).toEqual([3, line3.indexOf('"parameters"') + 1]);
    expect(at(['paths', 0])).toEqual([2, 3]);
    expect(at(['dup', 'first'])).toEqual([5, 12]);
    expect(at(['dup', 'second'])).toEqual([5, 3]);
    expect(at(['list', 1, 1])).toEqual([7, 23]);
    expect(at([])).toEqual([1, 1]);
  });

  it('places several notes in one pass, each where its own pointer leads', () => {
    const notes: ImportNote[] = [['list', 0], ['nowhere'], ['dup']].map((pointer) => ({ code: 'MCPG191', pointer, message: 'm' }));
    const lines = noteDiagnostics(notes, 'api.json', () => new TextEncoder().encode(TEXT)).map((d) => [d.line, d.column]);
    expect(lines).toEqual([[7, 13], [1, 1], [5, 3]]);
  });
});
