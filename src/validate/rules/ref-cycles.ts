// `$ref` cycles that never descend into the data. A schema may refer to itself (a tree: `children`
// items are Trees), since each round consumes one level of a finite instance. A cycle made only of
// keywords that apply to the same instance (`$ref`, allOf/anyOf/oneOf, not, if/then/else,
// dependentSchemas) never consumes anything: validating recurses until the stack overflows, and
// types.ts would hold type aliases that refer to themselves (TS2456). Such cycles are MCPG040.
import { bundleSchema, isObjectSchema, resolveRef, walkSchema, type SchemaPath } from '../../common/json-schema.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { report, where } from '../report.js';
import type { JsonObjectSchema, JsonSchema } from '../spec-types.js';
import type { Located, SpecView } from '../view.js';
import { locate } from '../../parse/source.js';
import { cleanUnderDefs } from './schema-check-cache.js';
import { schemaShape } from './schema-shape.js';

/** Keywords whose subschemas apply to the same instance as their parent. */
const SAME_INSTANCE_SINGLE = ['not', 'if', 'then', 'else'] as const;
const SAME_INSTANCE_LIST = ['allOf', 'anyOf', 'oneOf'] as const;

interface Root {
  readonly schema: JsonSchema;
  /** What `#` means in it. */
  readonly context: JsonSchema;
  /** The spec schema it is a bundled copy of. */
  readonly original: JsonSchema;
}

interface Place {
  readonly item: Located<unknown>;
  readonly path: SchemaPath;
}

export interface RefCycles {
  readonly diagnostics: Diagnostic[];
  /** Spec schemas (a `$defs` value, a tool's input or output) from which a cycle is reachable: not compiled further. */
  readonly tainted: ReadonlySet<unknown>;
}

export function findRefCycles(view: SpecView, defs: ReadonlyMap<string, JsonSchema>): RefCycles {
  // --watch: a tool schema found acyclic last run (same object, same $defs) is not bundled and walked again.
  const acyclic = cleanUnderDefs('acyclic', defs);
  // Each root: a spec schema with the spec $defs it uses bundled in, and the copy's original.
  const roots: Root[] = [];
  const defsAlone = defsAcyclicAlone(view, defs);
  for (const d of view.defs) {
    // No cycle runs through the spec $defs, whatever refers to them (defsAcyclicAlone): nothing to walk.
    if (defsAlone) {
      if (isObjectSchema(d.value)) acyclic.add(d.value);
      continue;
    }
    // Walked with the spec $defs it uses bundled in (a cycle it reaches through a property counts);
    // inside spec $defs, `#/$defs/X` means the spec's X, as in checkSchema.
    roots.push({ schema: isObjectSchema(d.value) ? bundleSchema(d.value, defs) : d.value, context: {}, original: d.value });
  }
  const tools = toolSchemasByShape(view, acyclic);
  // Tools are checked as they go on the wire: spec $defs bundled in, `#` meaning the tool's schema.
  const toolRoot = (schema: JsonObjectSchema): Root => {
    const bundled = bundleSchema(schema, defs);
    return { schema: bundled, context: bundled, original: schema };
  };
  roots.push(...tools.first.map(toolRoot));
  const found = { diagnostics: [] as Diagnostic[], tainted: new Set<unknown>() };
  const reporter = new CycleReporter(view, found, acyclic, defsAlone);
  reporter.walk(roots, defs);
  // The other tool schemas of a shape whose first had a cycle have it too: each is reported where it is written.
  const cyclic = new Set(roots.filter((r) => found.tainted.has(r.schema)).map((r) => schemaShape(r.original)));
  const more: Root[] = [];
  for (const schema of tools.rest) {
    if (cyclic.has(schemaShape(schema))) more.push(toolRoot(schema));
    else acyclic.add(schema);
  }
  if (more.length > 0) reporter.walk(more, defs);
  return found;
}

/** Reports the cycles of roots, once per cycle, at the first of its `$ref`s in file order. */
class CycleReporter {
  private readonly reported = new Set<string>();
  /** Every root walked so far (a cycle found in a bundled copy points at the copy's original). */
  private readonly roots: Root[] = [];
  private placesMap: Map<unknown, Place> | undefined;

  constructor(
    private readonly view: SpecView,
    private readonly found: { readonly diagnostics: Diagnostic[]; readonly tainted: Set<unknown> },
    private readonly acyclic: { add(o: object): unknown },
    /** defsAcyclicAlone held: a copied spec def's nodes need not be starts (ownStarts). */
    private readonly defsAlone: boolean,
  ) {}

  walk(list: readonly Root[], defs: ReadonlyMap<string, JsonSchema>): void {
    this.roots.push(...list);
    this.placesMap = undefined; // mapped again with these copies, should one of them have a cycle
    for (const { schema, context, original: written } of list) {
      const cycles = cyclesFrom(schema, context, defs, this.defsAlone ? ownStarts(schema, written) : undefined);
      if (cycles.length === 0) {
        if (isObjectSchema(written)) this.acyclic.add(written);
        continue;
      }
      const places = this.places();
      this.found.tainted.add(schema);
      const original = places.get(schema);
      if (original !== undefined) this.found.tainted.add(original.item.value);
      for (const cycle of cycles) this.report(cycle, places);
    }
  }

  private report(cycle: JsonObjectSchema[], places: Map<unknown, Place>): void {
    const refs = cycle.filter((n) => typeof n.$ref === 'string' && places.has(n));
    const key = refs.map((n) => { const p = places.get(n)!; return where(p.item, [...p.path, '$ref']); }).sort().join('|');
    if (refs.length === 0 || this.reported.has(key)) return;
    this.reported.add(key);
    // Report at the first `$ref` of the cycle in file order, and name every step.
    const start = refs.reduce((best, n) => (compareWhere(places.get(n)!, places.get(best)!) < 0 ? n : best));
    const from = refs.indexOf(start);
    const steps = [...refs.slice(from + 1), ...refs.slice(0, from)].map((n) => {
      const p = places.get(n)!;
      return `${JSON.stringify(n.$ref)} (${where(p.item, [...p.path, '$ref'])}) → `;
    });
    const p = places.get(start)!;
    const cycleText = `${JSON.stringify(start.$ref)} → ${steps.join('')}back to ${JSON.stringify(start.$ref)}`;
    this.found.diagnostics.push(
      report(p.item, 'MCPG040', `$ref cycle ${cycleText} never reaches a property or an item: validating would recurse forever; recurse through "properties" or "items" (as a tree does)`, [...p.path, '$ref']),
    );
  }

  /**
   * Where each schema object of the spec stands, so a cycle found in a bundled copy points into the file:
   * needed only to report a cycle, so only mapped when there is one (a walk over every schema otherwise).
   */
  private places(): Map<unknown, Place> {
    if (this.placesMap !== undefined) return this.placesMap;
    const places = new Map<unknown, Place>();
    const note = (item: Located<unknown>, schema: JsonSchema) =>
      walkSchema(schema, ({ schema: node, path }) => {
        if (isObjectSchema(node) && !places.has(node)) places.set(node, { item, path });
      });
    for (const d of this.view.defs) note(d, d.value);
    for (const tool of this.view.tools) {
      for (const key of ['input', 'output'] as const) {
        const schema = tool.value[key];
        if (isObjectSchema(schema)) note({ ...tool, value: schema, path: [...tool.path, key] }, schema);
      }
    }
    for (const r of this.roots) if (r.schema !== r.original && places.has(r.original)) places.set(r.schema, places.get(r.original)!);
    return (this.placesMap = places);
  }
}

/** The tool schemas to walk: the first of each shape (schema-shape.ts), and the rest, which have its outcome. */
function toolSchemasByShape(view: SpecView, skip: { has(o: object): boolean }): { first: JsonObjectSchema[]; rest: JsonObjectSchema[] } {
  const seen = new Set<string>();
  const first: JsonObjectSchema[] = [];
  const rest: JsonObjectSchema[] = [];
  for (const tool of view.tools) {
    for (const key of ['input', 'output'] as const) {
      const schema = tool.value[key];
      if (!isObjectSchema(schema) || skip.has(schema)) continue;
      const shape = schemaShape(schema);
      if (seen.has(shape)) rest.push(schema);
      else {
        seen.add(shape);
        first.push(schema);
      }
    }
  }
  return { first, rest };
}

function compareWhere(a: Place, b: Place): number {
  if (a.item.source.file !== b.item.source.file) return a.item.source.file < b.item.source.file ? -1 : 1;
  const pa = locate(a.item.source, [...a.item.path, ...a.path, '$ref']);
  const pb = locate(b.item.source, [...b.item.path, ...b.path, '$ref']);
  return pa.line - pb.line || pa.column - pb.column;
}

/** Subschemas that apply to the same instance as `node` (the edges a cycle may not consist of only). */
function sameInstance(node: JsonObjectSchema, context: JsonSchema, defs: ReadonlyMap<string, JsonSchema>): JsonObjectSchema[] {
  const out: unknown[] = [];
  if (typeof node.$ref === 'string') {
    const target = resolveRef(node.$ref, context, defs);
    if (target.kind !== 'unresolved') out.push(target.schema);
  }
  for (const k of SAME_INSTANCE_SINGLE) if (Object.hasOwn(node, k)) out.push(node[k]);
  for (const k of SAME_INSTANCE_LIST) if (Array.isArray(node[k])) out.push(...(node[k] as unknown[]));
  if (isObjectSchema(node.dependentSchemas)) out.push(...Object.values(node.dependentSchemas));
  return out.filter(isObjectSchema);
}

/**
 * Whether no cycle can run through a node of the spec `$defs`, from whatever root it is reached: each of
 * their `$ref`s names a spec def (`#/$defs/X…`, which resolves to the same object inside a def and inside
 * a tool's bundled copy without `$defs` of its own), and one search from every one of their nodes finds no
 * cycle. Then a tool's copied defs add no cycle and no start (ownStarts): GitHub's tools bundle hundreds of
 * shared defs, each walked again per tool and per def before (a third of the import's schema checks).
 */
function defsAcyclicAlone(view: SpecView, defs: ReadonlyMap<string, JsonSchema>): boolean {
  const starts: JsonObjectSchema[] = [];
  let named = true;
  for (const d of view.defs) {
    walkSchema(d.value, ({ schema }) => {
      if (!isObjectSchema(schema)) return;
      if (typeof schema.$ref === 'string' && !schema.$ref.startsWith('#/$defs/')) named = false;
      starts.push(schema);
    });
    if (!named) return false;
  }
  return cyclesFrom({}, {}, defs, starts).length === 0;
}

/**
 * The starts of a bundled tool schema without its copied spec defs, in walkSchema's order: the bundled
 * root, then the written schema's nodes. Undefined (every node a start) when the tool has `$defs` of its
 * own, which could shadow a spec def's name inside the copies.
 */
function ownStarts(bundled: JsonSchema, written: JsonSchema): JsonObjectSchema[] | undefined {
  if (!isObjectSchema(bundled) || !isObjectSchema(written) || written.$defs !== undefined) return undefined;
  const starts: JsonObjectSchema[] = [];
  walkSchema(written, ({ schema, path }) => {
    if (isObjectSchema(schema)) starts.push(path.length === 0 ? bundled : schema);
  });
  return starts;
}

/**
 * Every cycle of same-instance edges reachable from any subschema of `root` (or from `starts`), as the
 * list of nodes on it. Iterative depth-first search (a long `$ref` chain must not overflow the checker's own stack).
 */
function cyclesFrom(root: JsonSchema, context: JsonSchema, defs: ReadonlyMap<string, JsonSchema>, starts?: readonly JsonObjectSchema[]): JsonObjectSchema[][] {
  const state = new Map<JsonObjectSchema, 'open' | 'done'>();
  const cycles: JsonObjectSchema[][] = [];
  if (starts === undefined) {
    const all: JsonObjectSchema[] = [];
    walkSchema(root, ({ schema }) => {
      if (isObjectSchema(schema)) all.push(schema);
    });
    starts = all;
  }
  for (const start of starts) {
    if (state.has(start)) continue;
    const stack: { node: JsonObjectSchema; next: JsonObjectSchema[] }[] = [{ node: start, next: sameInstance(start, context, defs) }];
    state.set(start, 'open');
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const child = top.next.shift();
      if (child === undefined) {
        state.set(top.node, 'done');
        stack.pop();
        continue;
      }
      const s = state.get(child);
      if (s === 'open') {
        const from = stack.findIndex((f) => f.node === child);
        cycles.push(stack.slice(from).map((f) => f.node));
      } else if (s === undefined) {
        state.set(child, 'open');
        stack.push({ node: child, next: sameInstance(child, context, defs) });
      }
    }
  }
  return cycles;
}
