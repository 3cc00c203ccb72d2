// `generate --watch` only: each tool's IR by its parsed tool object (parse/entry-cache.ts keeps that object
// while the tool's text is unchanged). A tool's IR depends on the tool and the spec's `$defs` (bundled
// into its schemas) only, so the cache is dropped whenever the `$defs` change.
import type { JsonSchema, RawTool } from '../validate/spec-types.js';
import type { ToolModel } from './ir.js';

let enabled = false;
let defsKey: string | undefined;
let models = new WeakMap<RawTool, ToolModel>();

export function enableToolModelCache(): void {
  enabled = true;
}

/** `build(tool)`, or what it returned for this very tool object under the same `$defs`. */
export function toolModelCached(defs: ReadonlyMap<string, JsonSchema>, build: (tool: RawTool) => ToolModel): (tool: RawTool) => ToolModel {
  if (!enabled) return build;
  const key = JSON.stringify([...defs]);
  if (key !== defsKey) {
    defsKey = key;
    models = new WeakMap();
  }
  return (tool) => {
    let model = models.get(tool);
    if (model === undefined) models.set(tool, (model = build(tool)));
    return model;
  };
}
