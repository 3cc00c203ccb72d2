import type { ServerModel } from '../model/ir.js';
import type { Rule } from './rules.js';

export type ItemKind = 'tool' | 'resource' | 'resourceTemplate' | 'prompt';

export interface Position {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** JSON path inside that file, e.g. `tools[0].input.properties.city`. */
  readonly path: string;
}

/**
 * Where something of a model stands in its spec: the item (by name, URI or URI template; none: the server)
 * and a path below it as the spec spells it (`['input', 'properties', 'city']`). Built by the pipeline from
 * the validated view, so comparing never re-reads YAML.
 */
export type Locator = (item: { readonly kind: ItemKind; readonly key: string } | undefined, sub: readonly (string | number)[]) => Position | undefined;

export interface Side {
  readonly model: ServerModel;
  readonly locate: Locator;
}

export interface Finding {
  readonly rule: Rule;
  readonly message: string;
  /** Position in the new spec (absent for something removed) and in the old one (absent for something added). */
  readonly new?: Position;
  readonly old?: Position;
  /** What the finding is about, for `ignore` entries scoped with `only`: item names, URIs, URI templates, toolset and server names. */
  readonly subjects?: readonly string[];
}
