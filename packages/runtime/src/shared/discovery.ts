// Dynamic discovery (docs/toolsets.md#dynamic-discovery): the names of the tools the runtime adds to a
// server whose spec has `discovery:`. Shared: the generator checks spec tools against them (MCPG165) and
// gives the generated client typed methods for them.

/** Lists the toolsets a caller may enable, each with its tools and whether it is enabled for that caller. */
export const LIST_TOOLSETS_TOOL = 'list_toolsets';
/** Enables one toolset for the caller: its tools join the caller's tools/list and may be called. */
export const ENABLE_TOOLSET_TOOL = 'enable_toolset';
/** Disables a toolset the caller enabled (the initial ones stay). */
export const DISABLE_TOOLSET_TOOL = 'disable_toolset';

export const DISCOVERY_TOOL_NAMES: readonly string[] = [LIST_TOOLSETS_TOOL, ENABLE_TOOLSET_TOOL, DISABLE_TOOLSET_TOOL];
