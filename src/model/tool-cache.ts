// `generate --watch` only: each tool's IR by its parsed tool object (parse/entry-cache.ts keeps that object
// while the tool's text is unchanged). A tool's IR depends on the tool and the spec's `$defs` (bundled
// into its schemas) only: one store per `$defs` (several specs, several stores).
import type { JsonSchema, RawTool } from '../validate/spec-types.js';
import type { ToolModel } from './ir.js';
import { ObjectCache } from '../common/context-stores.js';

/**
 * By the `$defs` entries, names and objects: bundling puts those very objects into the tool's schemas,
 * and emit tells a bundled copy by identity; two specs with equal `$defs` (and a tool of the same text,
 * hence the same parsed object) still get IRs of their own.
 */
const TOOL_MODELS = new ObjectCache<RawTool, ToolModel>();

/** `build(tool)`, or what it returned for this very tool object under the same `$defs`. */
export function toolModelCached(defs: ReadonlyMap<string, JsonSchema>, build: (tool: RawTool) => ToolModel): (tool: RawTool) => ToolModel {
  const model = TOOL_MODELS.with([...defs].flat());
  return (tool) => model(tool, () => build(tool));
}
