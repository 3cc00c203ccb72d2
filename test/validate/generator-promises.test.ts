// What `check` must refuse so that a clean check always generates code that compiles and serves
// (issue 10): $ref cycles that never descend into the data, generated names that collide, and
// inherited names (`constructor`, `__proto__`) read as if they were the spec's own.
import { describe, expect, it } from 'vitest';
import { checkText } from '../helpers.js';

const HEAD = 'mcpgen: 1\nserver: { name: s, version: 1.0.0 }\n';

function codes(text: string) {
  return checkText(text).diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`);
}

describe('$ref cycles (MCPG040)', () => {
  it('a pure $ref cycle is reported once, where it starts, naming every step; no MCPG019 stack overflow', () => {
    const result = checkText(`${HEAD}$defs:\n  P: { $ref: '#/$defs/Q' }\n  Q: { $ref: '#/$defs/P' }\ntools:\n  - name: t\n    input: { type: object, properties: { p: { $ref: '#/$defs/P' } } }\n`);
    expect(result.diagnostics.map((d) => [d.code, d.line, d.column, d.path])).toEqual([['MCPG040', 4, 14, '$defs.P.$ref']]);
    expect(result.diagnostics[0]!.message).toBe('$ref cycle "#/$defs/Q" → "#/$defs/P" (spec.yaml:5:14) → back to "#/$defs/Q" never reaches a property or an item: validating would recurse forever; recurse through "properties" or "items" (as a tree does)');
  });

  it('a schema that refers to itself directly', () => {
    expect(codes(`${HEAD}$defs:\n  A: { $ref: '#/$defs/A' }\n`)).toEqual(['MCPG040@4:14']);
  });

  const through: Record<string, string> = {
    allOf: "{ allOf: [{ $ref: '#/$defs/B' }] }",
    anyOf: "{ anyOf: [{ type: string }, { $ref: '#/$defs/B' }] }",
    oneOf: "{ oneOf: [{ type: string }, { $ref: '#/$defs/B' }] }",
    not: "{ not: { $ref: '#/$defs/B' } }",
    if: "{ if: { $ref: '#/$defs/B' } }",
    then: "{ if: { type: string }, then: { $ref: '#/$defs/B' } }",
    else: "{ if: { type: string }, else: { $ref: '#/$defs/B' } }",
    dependentSchemas: "{ dependentSchemas: { x: { $ref: '#/$defs/B' } } }",
  };
  for (const [keyword, a] of Object.entries(through)) {
    it(`a cycle through ${keyword} (A → B → A)`, () => {
      const result = checkText(`${HEAD}$defs:\n  A: ${a}\n  B: { allOf: [{ $ref: '#/$defs/A' }] }\ntools:\n  - name: t\n    input: { type: object, properties: { a: { $ref: '#/$defs/A' } } }\n`);
      expect(result.diagnostics.map((d) => `${d.code}@${d.line}`)).toEqual(['MCPG040@4']);
    });
  }

  it("a tool schema that includes itself through `$ref: '#'`", () => {
    expect(codes(`${HEAD}tools:\n  - name: t\n    input: { type: object, allOf: [{ $ref: '#' }] }\n`)).toEqual(['MCPG040@5:44']);
  });

  it('a cycle between a tool-local $defs entry and the tool root', () => {
    expect(codes(`${HEAD}tools:\n  - name: t\n    input:\n      type: object\n      $defs: { L: { anyOf: [{ $ref: '#' }] } }\n      oneOf: [{ $ref: '#/$defs/L' }]\n`)).toEqual(['MCPG040@7:37']);
  });

  it('recursion that descends into the data is valid: trees, expressions, mutual recursion through items, required self-reference', () => {
    const result = checkText(`${HEAD}$defs:
  Tree: { type: object, properties: { value: { type: string }, children: { type: array, items: { $ref: '#/$defs/Tree' } } } }
  Expr: { anyOf: [{ type: number }, { type: object, properties: { args: { type: array, items: { $ref: '#/$defs/Expr' } } } }] }
  L1: { type: array, items: { $ref: '#/$defs/L2' } }
  L2: { anyOf: [{ type: string }, { $ref: '#/$defs/L1' }] }
  U: { allOf: [{ $ref: '#/$defs/V' }] }
  V: { type: object, properties: { u: { $ref: '#/$defs/U' } } }
  M: { type: object, additionalProperties: { $ref: '#/$defs/M' } }
tools:
  - name: t
    input:
      type: object
      properties:
        tree: { $ref: '#/$defs/Tree' }
        expr: { $ref: '#/$defs/Expr' }
        l: { $ref: '#/$defs/L1' }
        u: { $ref: '#/$defs/U' }
        m: { $ref: '#/$defs/M' }
        self: { $ref: '#' }
`);
    expect(result.diagnostics).toEqual([]);
    expect(result.models).toHaveLength(1);
  });
});

describe('generated names that would collide (MCPG012)', () => {
  it('an elicitation answer type and a $defs entry', () => {
    const result = checkText(`${HEAD}$defs:\n  ABContent: { type: string }\ntools:\n  - name: a\n    elicit:\n      b: { message: m, schema: { type: object, properties: { q: { type: string } } } }\n`);
    expect(result.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([['MCPG012', 4, 14]]);
    expect(result.diagnostics[0]!.message).toBe('$defs "ABContent" and elicitation "b" of tool "a" (spec.yaml:8:10) both become the TypeScript type "ABContent"; rename one');
  });

  it('$defs entries named like the client class or the handlers interface', () => {
    const result = checkText(`${HEAD}$defs:\n  SClient: { type: string }\n  SHandlers: { type: string }\n`);
    expect(result.diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([
      ['MCPG012', 4, '$defs "SClient" and server "s" (spec.yaml:2:17) both become the TypeScript type "SClient"; rename one'],
      ['MCPG012', 5, '$defs "SHandlers" and server "s" (spec.yaml:2:17) both become the TypeScript type "SHandlers"; rename one'],
    ]);
  });

  it('a server whose names are the runtime imports the generated code needs', () => {
    const result = checkText('mcpgen: 1\nserver: { name: mcpgen, version: 1.0.0 }\n');
    expect(result.diagnostics.map((d) => [d.code, d.line, d.column, d.message])).toEqual([
      ['MCPG012', 2, 17, 'server "mcpgen" becomes the TypeScript names "createMcpgenServer" and "McpgenClient", which the generated code imports from mcpgen\'s runtime; rename the server'],
    ]);
  });

  it('$defs named like TypeScript globals are fine: types.ts names no global type', () => {
    const result = checkText(`${HEAD}$defs:\n  Record: { type: object }\n  Promise: { type: string }\n  Array: { type: array, items: { $ref: '#/$defs/Record' } }\n`);
    expect(result.diagnostics).toEqual([]);
  });
});

describe('inherited names are never the spec\'s own', () => {
  it('$ref to #/$defs/constructor resolves to the spec entry of that name, and is MCPG023 only when there is none', () => {
    expect(codes(`${HEAD}$defs:\n  constructor: { type: string }\ntools:\n  - name: t\n    input: { type: object, properties: { c: { $ref: '#/$defs/constructor' } } }\n`)).toEqual([]);
    // A tool with $defs of its own: `constructor` is inherited there, not its entry; the spec's is meant.
    expect(codes(`${HEAD}$defs:\n  constructor: { type: string }\ntools:\n  - name: t\n    input: { type: object, $defs: { x: { type: string } }, properties: { c: { $ref: '#/$defs/constructor' } } }\n`)).toEqual([]);
    expect(codes(`${HEAD}tools:\n  - name: t\n    input: { type: object, $defs: { x: { type: string } }, properties: { c: { $ref: '#/$defs/toString' } } }\n`)).toEqual(['MCPG023@5:85']);
  });

  it('a $defs entry named __proto__ is bundled into the tool schema as an own entry', () => {
    const result = checkText(`${HEAD}$defs:\n  __proto__: { type: integer }\ntools:\n  - name: t\n    input: { type: object, properties: { n: { $ref: '#/$defs/__proto__' } } }\n`);
    expect(result.diagnostics).toEqual([]);
    const $defs = result.models[0]!.tools[0]!.inputSchema.$defs as object;
    expect(Object.hasOwn($defs, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf($defs)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor($defs, '__proto__')!.value).toEqual({ type: 'integer' });
  });

  it('an elicitation field of type "constructor" is MCPG029, not a crash', () => {
    expect(codes(`${HEAD}tools:\n  - name: t\n    elicit:\n      k: { message: m, schema: { type: object, properties: { q: { type: constructor } } } }\n`)).toEqual(['MCPG029@6:65']);
  });
});
