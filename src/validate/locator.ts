// Positions for the compare stage: an item of a validated view (by name, URI or URI template) and a path
// below it → file:line:col. locate() stops at the deepest node that exists, so a path into something the
// other version added points at its nearest ancestor.
import { formatPath } from '../diagnostics/diagnostic.js';
import { locate, type JsonPath } from '../parse/source.js';
import type { Located, SpecView } from './view.js';

export type ViewItemKind = 'tool' | 'resource' | 'resourceTemplate' | 'prompt';

export function viewLocator(view: SpecView) {
  const keyed = (list: readonly Located<unknown>[], key: string) => new Map(list.map((l) => [String((l.value as Record<string, unknown>)[key]), l] as const));
  const items: Record<ViewItemKind, Map<string, Located<unknown>>> = {
    tool: keyed(view.tools, 'name'),
    resource: keyed(view.resources, 'uri'),
    resourceTemplate: keyed(view.resourceTemplates, 'uriTemplate'),
    prompt: keyed(view.prompts, 'name'),
  };
  return (item: { readonly kind: ViewItemKind; readonly key: string } | undefined, sub: JsonPath) => {
    const at = item === undefined ? { source: view.root, path: [] as JsonPath } : items[item.kind].get(item.key);
    if (at === undefined) return undefined;
    const path = [...at.path, ...sub];
    return { file: at.source.file, ...locate(at.source, path), path: formatPath(path) };
  };
}
