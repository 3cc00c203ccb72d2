/**
 * The leniency report: what the import changed or dropped, and where the generated server will answer
 * differently from the old one (zod filled defaults and stripped unknown keys; the generated server fills
 * only top-level defaults and refuses what `additionalProperties: false` forbids).
 */
export interface LeniencyEntry {
  /** `server`, `tool read_file`, `resource file:///a`, … */
  readonly item: string;
  /** dropped: not in the spec; changed: in the spec in another form; behaviour: same spec, other answers. */
  readonly kind: 'dropped' | 'changed' | 'behaviour';
  /** JSON path inside the item, '' for the item itself. */
  readonly path: string;
  readonly message: string;
}

export class Leniency {
  readonly entries: LeniencyEntry[] = [];

  add(item: string, kind: LeniencyEntry['kind'], path: string, message: string): void {
    this.entries.push({ item, kind, path, message });
  }
}

export function formatLeniency(entries: readonly LeniencyEntry[]): string {
  return entries.map((e) => `${e.item}${e.path === '' ? '' : ` at ${e.path}`}: ${e.kind}: ${e.message}\n`).join('');
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Looks through one tool's input schema for defaults deeper than root properties and for closed objects. */
export function reviewInputSchema(item: string, schema: unknown, report: Leniency): void {
  if (!isObject(schema)) return;
  const zod = typeof schema.$schema === 'string' && /draft-07/.test(schema.$schema);
  const closed: string[] = [];
  const deepDefaults: string[] = [];
  walk(schema, '', (node, path, depth) => {
    if (node.additionalProperties === false && zod) closed.push(path === '' ? '(root)' : path);
    // runTool fills defaults of the root's own properties only (or of the $defs entry they name).
    if ('default' in node && depth > 1) deepDefaults.push(path);
  });
  if (closed.length > 0) {
    report.add(item, 'behaviour', '', `unknown argument keys: the old server (zod, draft-07 schema) probably stripped them, the generated one refuses the call (additionalProperties: false at ${closed.join(', ')})`);
  }
  for (const path of deepDefaults) {
    report.add(item, 'behaviour', path, 'default not filled in by the generated server (only the top-level properties\' defaults are); the handler sees the argument missing');
  }
}

/** Depth counts schema levels: the root is 0, its properties 1 (and $defs entries, whose defaults reach the handler through a root property's $ref). */
function walk(node: Json, path: string, visit: (node: Json, path: string, depth: number) => void, depth = 0): void {
  visit(node, path, depth);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === '$defs' || key === 'definitions' || key === 'patternProperties') {
      if (!isObject(value)) continue;
      for (const [name, sub] of Object.entries(value)) if (isObject(sub)) walk(sub, `${path}/${key}/${name}`, visit, key === 'patternProperties' ? depth + 2 : depth + 1);
    } else if (key === 'items' || key === 'additionalProperties' || key === 'not' || key === 'if' || key === 'then' || key === 'else' || key === 'contains') {
      if (isObject(value)) walk(value, `${path}/${key}`, visit, depth + 2);
      else if (Array.isArray(value)) value.forEach((sub, i) => isObject(sub) && walk(sub, `${path}/${key}/${i}`, visit, depth + 2));
    } else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf' || key === 'prefixItems') {
      if (Array.isArray(value)) value.forEach((sub, i) => isObject(sub) && walk(sub, `${path}/${key}/${i}`, visit, depth + 2));
    }
  }
}
