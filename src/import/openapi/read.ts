// Reading an OpenAPI description with swagger-parser: parsed and, when it refers to other files, bundled
// into one document whose `$ref`s all point into itself (what the mapping reads through `$refs.get`).
import type SwaggerParser from '@apidevtools/swagger-parser';

type Obj = Record<string, unknown>;

export interface ReadDescription {
  readonly doc: Obj;
  /** The value a `#/…` pointer of the document names (swagger-parser's `$refs.get`). */
  readonly get: (ref: string) => unknown;
}

/**
 * `bundle()` walks every value and every `$ref` of the document a second and third time (an inventory of
 * each reference, then a rewrite), which only changes a description that refers to other files or nests
 * schema resources (`$id`): GitHub's 13 MB of internal `$ref`s spent a second there to come out as parsed.
 * So the document is parsed, and bundled only when one of its references is not a plain `#/…` pointer or
 * a schema declares `$id`/`$schema`; otherwise each distinct pointer is looked up once with the parser's
 * own `$refs.get`, so that a pointer to nothing fails here as it would in `bundle()`. (One thing bundle()
 * would still have done: point a `$ref` to a `$ref` at the final target. Unbundled, the chain stays, one
 * `$defs` entry referring to the next: the same schema.)
 */
export async function readDescription(location: string): Promise<ReadDescription> {
  // Loaded only here: check and generate never pay for the OpenAPI parser.
  const { default: Parser } = await import('@apidevtools/swagger-parser');
  const parser: SwaggerParser = new Parser();
  let doc = (await parser.parse(location)) as unknown as Obj;
  const refs = new Set<string>();
  if (needsBundle(doc, refs)) doc = (await parser.bundle(location, doc as never)) as unknown as Obj;
  else for (const ref of refs) parser.$refs.get(ref);
  return { doc, get: (ref) => parser.$refs.get(ref) };
}

/**
 * Whether the document needs `bundle()`: a `$ref` that is not a `#/…` pointer into it (another file, a URL,
 * an anchor), or a `$id`/`$schema` that could move the base pointers resolve against. A pointer with
 * percent-escapes is bundled too: bundle() writes it decoded, as the names of `$defs` (defs.ts) are keyed.
 * Collects the pointers meanwhile. Iterative: a deep document must not run out of stack.
 */
function needsBundle(doc: unknown, refs: Set<string>): boolean {
  const stack: unknown[] = [doc];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    const obj = value as Obj;
    const ref = obj.$ref;
    if (typeof ref === 'string' && ref !== '') {
      if (!ref.startsWith('#/') || ref.includes('%')) return true;
      refs.add(ref);
    }
    if (typeof obj.$id === 'string' || typeof obj.$schema === 'string') return true;
    for (const key in obj) {
      const child = obj[key];
      if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return false;
}
