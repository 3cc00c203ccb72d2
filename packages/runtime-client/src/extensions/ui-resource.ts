// MCP Apps on the client side: a tool's view as a host needs it (the HTML and the `_meta.ui` that
// tells it how to sandbox the iframe), checked rather than trusted.
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { UI_MIME_TYPE } from '@mcpgen/runtime/shared';

/** `_meta.ui` of a view: origins for the host's Content-Security-Policy, iframe permissions, and more. */
export interface UiResourceMeta {
  readonly csp?: { readonly connectDomains?: string[]; readonly resourceDomains?: string[]; readonly frameDomains?: string[]; readonly baseUriDomains?: string[] };
  readonly permissions?: { readonly camera?: object; readonly microphone?: object; readonly geolocation?: object; readonly clipboardWrite?: object };
  readonly domain?: string;
  readonly prefersBorder?: boolean;
}

export interface UiResource {
  readonly uri: string;
  readonly mimeType: typeof UI_MIME_TYPE;
  readonly html: string;
  readonly meta: UiResourceMeta;
}

/** The view in a resources/read answer: the text item for `uri` with the MCP Apps mimeType, else an Error. */
export function uiResourceOf(result: ReadResourceResult, uri: string): UiResource {
  const item = result.contents.find((c) => c.uri === uri);
  if (item === undefined) throw new Error(`resources/read of ${uri} returned no contents for that URI`);
  if (item.mimeType !== UI_MIME_TYPE) throw new Error(`${uri} has mimeType ${JSON.stringify(item.mimeType)}, not ${JSON.stringify(UI_MIME_TYPE)} (not an MCP Apps view)`);
  if (!('text' in item) || typeof item.text !== 'string') throw new Error(`${uri} is not text`);
  const ui = (item._meta as { ui?: unknown } | undefined)?.ui;
  return { uri, mimeType: UI_MIME_TYPE, html: item.text, meta: typeof ui === 'object' && ui !== null && !Array.isArray(ui) ? (ui as UiResourceMeta) : {} };
}
