import { isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver';
import type { SourceFile } from '../parse/source.js';
import { lspRange } from './navigation.js';

/** The outline of a spec file: its tools, resources, templates, prompts, apps, toolsets and `$defs`. */
const LISTS: Readonly<Record<string, { readonly key: string; readonly kind: SymbolKind }>> = {
  tools: { key: 'name', kind: SymbolKind.Function },
  resources: { key: 'uri', kind: SymbolKind.File },
  resourceTemplates: { key: 'uriTemplate', kind: SymbolKind.File },
  prompts: { key: 'name', kind: SymbolKind.String },
  apps: { key: 'uri', kind: SymbolKind.Module },
};

export function documentSymbols(source: SourceFile): DocumentSymbol[] {
  const top = source.doc.contents;
  if (!isMap(top)) return [];
  const range = (node: unknown) => {
    const r = (node as Node | undefined)?.range;
    return r ? lspRange(source, r[0], r[1]) : undefined;
  };
  const out: DocumentSymbol[] = [];
  for (const pair of top.items) {
    if (!isPair(pair) || !isScalar(pair.key)) continue;
    const key = String(pair.key.value);
    const list = LISTS[key];
    const children: DocumentSymbol[] = [];
    if (list !== undefined && isSeq(pair.value)) {
      for (const item of pair.value.items) {
        const named = isMap(item) ? item.items.find((p) => isScalar(p.key) && p.key.value === list.key)?.value : undefined;
        const r = range(item);
        const sel = range(named) ?? r;
        if (isScalar(named) && r !== undefined && sel !== undefined) children.push({ name: String(named.value), kind: list.kind, range: r, selectionRange: sel });
      }
    } else if ((key === '$defs' || key === 'toolsets') && isMap(pair.value)) {
      for (const entry of pair.value.items) {
        const r = range(entry.value) ?? range(entry.key);
        const sel = range(entry.key);
        if (isScalar(entry.key) && r !== undefined && sel !== undefined) {
          children.push({ name: String(entry.key.value), kind: key === '$defs' ? SymbolKind.Class : SymbolKind.Namespace, range: { start: sel.start, end: r.end }, selectionRange: sel });
        }
      }
    } else continue;
    const sel = range(pair.key)!;
    const whole = range(pair.value) ?? sel;
    out.push({ name: key, kind: SymbolKind.Array, range: { start: sel.start, end: whole.end }, selectionRange: sel, children });
  }
  return out;
}
