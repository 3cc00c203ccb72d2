/**
 * Texts that stand in for files on disk: what an editor holds open and unsaved (`mcpgen lsp` sets them).
 * Keyed by absolute path; every spec read (readSource) looks here first.
 */
const texts = new Map<string, string>();

export function setOverlay(absPath: string, text: string | undefined): void {
  if (text === undefined) texts.delete(absPath);
  else texts.set(absPath, text);
}

export function overlayText(absPath: string): string | undefined {
  return texts.get(absPath);
}
