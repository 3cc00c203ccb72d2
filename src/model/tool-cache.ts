// `generate --watch` only: each tool's IR by its parsed tool object (parse/entry-cache.ts keeps that object
// while the tool's text is unchanged). A tool's IR depends on the tool and the spec's `$defs` (bundled
// into its schemas) only: one store per `$defs` (several specs, several stores).
import type { JsonSchema, RawTool } from '../validate/spec-types.js';
import type { ToolModel } from './ir.js';
import { ContextStores, sameItems } from '../common/context-stores.js';

let enabled = false;
/**
 * By the `$defs` entries, names and objects: bundling puts those very objects into the tool's schemas,
 * and emit tells a bundled copy by identity; two specs with equal `$defs` (and a tool of the same text,
 * hence the same parsed object) still get IRs of their own.
 */
const byDefs = new ContextStores<readonly unknown[], WeakMap<RawTool, ToolModel>>(sameItems, () => new WeakMap());

export function enableToolModelCache(): void {
  enabled = true;
}

/** `build(tool)`, or what it returned for this very tool object under the same `$defs`. */
export function toolModelCached(defs: ReadonlyMap<string, JsonSchema>, build: (tool: RawTool) => ToolModel): (tool: RawTool) => ToolModel {
  if (!enabled) return build;
  const models = byDefs.for([...defs].flat());
  return (tool) => {
    let model = models.get(tool);
    if (model === undefined) models.set(tool, (model = build(tool)));
    return model;
  };
}
