/**
 * MCP reserves `_meta` key prefixes whose second label is `modelcontextprotocol` or `mcp`
 * (`io.modelcontextprotocol/`, `dev.mcp/`; not `com.example.mcp/`): only MCP itself writes under them.
 */
export function reservedPrefix(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  const second = key.slice(0, slash).split('.')[1];
  return second === 'modelcontextprotocol' || second === 'mcp';
}
