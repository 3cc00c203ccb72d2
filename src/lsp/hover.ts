import type { Hover } from 'vscode-languageserver';
import { toolMethodName, typeName } from '../common/names.js';
import type { SourceFile } from '../parse/source.js';
import { examplesHover } from './hover-examples.js';
import { lspRange } from './navigation.js';
import { describeKey, placeAt } from './schema-docs.js';
import type { SpecIndex } from './spec-index.js';
import { spotInSource } from './spots.js';

/**
 * Hover: the spec key's documentation (the spec format's JSON Schema descriptions, JSON Schema keywords
 * inside schemas), the `$defs` entry a `$ref` resolves to, the header an `x-mcp-header` puts on the wire,
 * and a tool's generated method and types, and its examples. The spec's index is asked for only on a `$ref`
 * (it reads the whole YAML document; the rest reads the entry under the cursor).
 */
export function hover(source: SourceFile, offset: number, index: () => SpecIndex | undefined): Hover | undefined {
  const spot = spotInSource(source, offset);
  if (spot === undefined) return undefined;
  const key = spot.path[spot.path.length - 1];
  const parts: string[] = [];
  const value = spot.onKey ? undefined : spot.scalar?.value;
  if (key === '$ref' && typeof value === 'string') parts.push(refTarget(value, index()));
  if (key === 'x-mcp-header' && placeAt(spot.path.slice(0, -1)).kind === 'json-schema') {
    const header = spot.onKey ? valueAt(source.value, spot.path) : value;
    if (typeof header === 'string') parts.push(`Sent on the wire as the HTTP header \`Mcp-Param-${header}\` (Streamable HTTP), mirroring this argument.`);
  }
  if (spot.path[0] === 'tools' && spot.path.length === 3 && key === 'name') {
    const name = valueAt(source.value, spot.path);
    if (typeof name === 'string') parts.push(toolFacts(name, valueAt(source.value, spot.path.slice(0, 2))));
  }
  const doc = typeof key === 'string' ? describeKey(spot.path) : undefined;
  if (doc !== undefined) parts.push(`**${String(key)}** — ${doc}`);
  if (parts.length === 0) return undefined;
  const hit = spot.scalar;
  return { contents: { kind: 'markdown', value: parts.join('\n\n') }, ...(hit !== undefined ? { range: lspRange(source, hit.start, hit.end) } : {}) };
}

function toolFacts(name: string, tool: unknown): string {
  const t = (tool ?? {}) as { output?: unknown; examples?: unknown };
  const types = [typeName(name, 'Input'), typeName(name, 'Arguments'), ...(t.output !== undefined ? [typeName(name, 'Output')] : [])];
  return `Tool \`${name}\`: handler method \`${toolMethodName(name)}\` (server and client), types ${types.map((x) => `\`${x}\``).join(', ')}.${examplesHover(t.examples)}`;
}

function refTarget(ref: string, index: SpecIndex | undefined): string {
  const name = ref.startsWith('#/$defs/') ? ref.slice('#/$defs/'.length) : undefined;
  const def = name === undefined ? undefined : index?.defs.get(name);
  if (def === undefined) return `\`${ref}\` does not resolve to a \`$defs\` entry of this spec.`;
  const { line } = def.source.lines.linePos(def.start);
  const lines = def.source.text.split('\n');
  const body = lines.slice(line - 1, line + 14);
  const indent = /^ */.exec(body[0]!)![0].length;
  const block = [body[0]!, ...body.slice(1).filter((_, i, all) => all.slice(0, i + 1).every((l) => l.trim() === '' || /^ */.exec(l)![0].length > indent))];
  return `\`${ref}\` → \`$defs.${name}\` (${def.source.file}:${line})\n\n\`\`\`yaml\n${block.map((l) => l.slice(indent)).join('\n')}\n\`\`\``;
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let v = root;
  for (const seg of path) v = (v as Record<string | number, unknown> | undefined)?.[seg];
  return v;
}
