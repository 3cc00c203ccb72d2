// MCP Apps (io.modelcontextprotocol/ui) wire constants, as @modelcontextprotocol/ext-apps defines them
// (a test checks they stay equal). Written out here so a deployed server does not load ext-apps and
// its peers for two strings.

/** The key under `capabilities.extensions` in server/discover (and in client capabilities). */
export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** mimeType of a view's HTML (`resources/list` and `resources/read`). */
export const UI_MIME_TYPE = 'text/html;profile=mcp-app';
/** Legacy flat `_meta` key for the view's URI, written next to `_meta.ui.resourceUri` for older hosts. */
export const UI_LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';
