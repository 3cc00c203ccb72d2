// Issue 47: `mcpgen lsp` over stdio, driven by vscode-languageserver-protocol's client, on a spec with an
// include, overrides, toolsets and a config with a provider target. Needs `npm run build` (bin/mcpgen.js).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeAction, CompletionItem, Diagnostic, DocumentSymbol, Hover, Location, Range, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { ROOT } from '../support/root.js';
import { LspClient, uriOf, writeProject } from '../support/lsp-client.js';

const SHOP = `mcpgen: 1
server:
  name: shop
  version: 1.0.0
include:
  - shop/orders.yaml
overrides:
  tools:
    get_order:
      description: Look up one order by id.
  $defs:
    Priority:
      description: How urgent.
toolsets:
  orders:
    tools:
      - get_order
tools:
  - name: ping
    description: Health check.
    input:
      type: object
      properties:
        region: { type: string, x-mcp-header: Region }
        level: { $ref: '#/$defs/Priority' }
      required: [region, level]
      additionalProperties: false
`;
const ORDERS = `tools:
  - name: get_order
    description: Get an order.
    input:
      type: object
      properties:
        id: { type: string }
        priority: { $ref: '#/$defs/Priority' }
$defs:
  Priority: { type: string, enum: [low, high] }
`;
const HANDLERS = 'export const handlers = {\n  async getOrder(args: { id: string }) {\n    return { id: args.id };\n  },\n};\n';
const FILES = { 'mcpgen.config.yaml': 'specs: [specs/shop.yaml]\ntargets: [openai-strict]\n', 'specs/shop.yaml': SHOP, 'specs/shop/orders.yaml': ORDERS, 'generated/shop/handlers.ts': HANDLERS };

/** LSP position of the `nth` occurrence of `needle` in `text`, `delta` characters in. */
function at(text: string, needle: string, delta = 0, nth = 0): { line: number; character: number } {
  let offset = -1;
  for (let i = 0; i <= nth; i++) offset = text.indexOf(needle, offset + 1);
  if (offset < 0) throw new Error(`no ${needle}`);
  const before = text.slice(0, offset + delta).split('\n');
  return { line: before.length - 1, character: before[before.length - 1]!.length };
}

function applyEdits(text: string, edits: readonly { range: Range; newText: string }[]): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start)).reduce((t, e) => t.slice(0, offset(e.range.start)) + e.newText + t.slice(offset(e.range.end)), text);
}

const simple = (ds: readonly Diagnostic[]) => ds.map((d) => `${String(d.code)} ${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}`).sort();

describe('mcpgen lsp over stdio (issue 47)', () => {
  let dir: string;
  let lsp: LspClient;
  const shop = () => uriOf(dir, 'specs/shop.yaml');
  const orders = () => uriOf(dir, 'specs/shop/orders.yaml');

  beforeAll(async () => {
    dir = writeProject(FILES);
    lsp = new LspClient(dir);
    const init = (await lsp.initialize()) as { capabilities: Record<string, unknown> };
    for (const c of ['hoverProvider', 'completionProvider', 'definitionProvider', 'referencesProvider', 'renameProvider', 'documentSymbolProvider', 'codeActionProvider']) expect(init.capabilities[c], c).toBeTruthy();
    await lsp.open('specs/shop.yaml', SHOP);
  });
  afterAll(async () => {
    expect(await lsp?.close()).toBe(0);
  });

  it('publishes what `mcpgen check` reports, the config target and the included file included', async () => {
    const cli = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'bin/mcpgen.js'), 'check', '--format', 'json'], { cwd: dir, encoding: 'utf8' })) as { code: string; file: string; line: number; column: number; message: string }[];
    expect(cli.some((d) => d.file === 'specs/shop/orders.yaml' && d.code.startsWith('MCPG16'))).toBe(true);
    const got = await lsp.diagnosticsOf('specs/shop/orders.yaml', (d) => d.length > 0);
    expect(simple(got)).toEqual(cli.filter((d) => d.file === 'specs/shop/orders.yaml').map((d) => `${d.code} ${d.line}:${d.column} ${d.message}`).sort());
    expect(lsp.diagnostics.get(shop()) ?? []).toEqual([]);
  });

  it('re-checks an unsaved edit, and its quick fix makes the file clean again', async () => {
    const broken = SHOP.replace('    input:\n      type: object\n      properties:\n        region', '    inputSchema:\n      type: object\n      properties:\n        region');
    await lsp.change('specs/shop.yaml', 2, broken);
    const ds = await lsp.diagnosticsOf('specs/shop.yaml', (d) => d.some((x) => x.code === 'MCPG003'));
    const d = ds.find((x) => x.code === 'MCPG003')!;
    expect(d.message).toContain('a spec writes the tool\'s argument schema as "input"');
    expect(d.range.start).toEqual(at(broken, 'inputSchema'));
    const actions = await lsp.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: shop() }, range: d.range, context: { diagnostics: [d] } });
    expect(actions.map((a) => a.title)).toEqual(['Rename "inputSchema" to "input"']);
    const fixed = applyEdits(broken, actions[0]!.edit!.changes![shop()]!);
    expect(fixed).toBe(SHOP);
    await lsp.change('specs/shop.yaml', 3, fixed);
    await lsp.diagnosticsOf('specs/shop.yaml', (x) => x.length === 0);
  });

  it('hovers: spec keys, the $ref target, the wire header, the tool method', async () => {
    const hover = async (uri: string, position: { line: number; character: number }) => ((await lsp.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position }))?.contents as { value: string } | undefined)?.value ?? '';
    expect(await hover(shop(), at(SHOP, "'#/$defs/Priority'", 3))).toContain('`$defs.Priority` (specs/shop/orders.yaml:10)');
    expect(await hover(shop(), at(SHOP, 'Region', 1))).toContain('`Mcp-Param-Region`');
    expect(await hover(shop(), at(SHOP, 'ping', 1))).toContain('handler method `ping`');
    expect(await hover(shop(), at(SHOP, 'toolsets', 2))).toContain('Named groups of tools');
    expect(await hover(shop(), at(SHOP, 'additionalProperties', 2))).toContain('properties not named in `properties`');
  });

  it('completes keys, annotation hints, $defs names, toolset tool names and formats', async () => {
    const labels = async (text: string, position: { line: number; character: number }) => {
      await lsp.change('specs/shop.yaml', 10, text);
      const items = await lsp.request<CompletionItem[]>('textDocument/completion', { textDocument: { uri: shop() }, position });
      return items.map((i) => i.label);
    };
    const key = SHOP.replace('    description: Health check.\n', '    description: Health check.\n    ti\n');
    const keys = await labels(key, at(key, '    ti\n', 6));
    expect(keys).toContain('title');
    expect(keys).toContain('annotations');
    expect(keys).not.toContain('description');
    const hint = SHOP.replace('    description: Health check.\n', '    description: Health check.\n    annotations:\n      re\n');
    expect(await labels(hint, at(hint, '      re\n', 8))).toContain('readOnlyHint');
    const ref = SHOP.replace("level: { $ref: '#/$defs/Priority' }", "level: { $ref: '#/$defs/P' }");
    expect(await labels(ref, at(ref, "'#/$defs/P'", 10))).toEqual(['#/$defs/Priority']);
    const member = SHOP.replace('      - get_order\n', '      - get_order\n      - \n');
    expect(await labels(member, at(member, '      - \n', 8))).toEqual(expect.arrayContaining(['get_order', 'ping']));
    const format = SHOP.replace('region: { type: string,', 'region: { type: string, format: da,');
    expect(await labels(format, at(format, 'format: da', 10))).toEqual(expect.arrayContaining(['date', 'date-time']));
    await lsp.change('specs/shop.yaml', 11, SHOP);
  });

  it('goes to definitions across files: $ref → $defs, override → tool, include → file, tool → handlers method', async () => {
    const def = (uri: string, position: { line: number; character: number }) => lsp.request<Location[]>('textDocument/definition', { textDocument: { uri }, position });
    expect(await def(shop(), at(SHOP, "'#/$defs/Priority'", 10))).toEqual([{ uri: orders(), range: { start: at(ORDERS, 'Priority:'), end: at(ORDERS, 'Priority:', 8) } }]);
    expect(await def(shop(), at(SHOP, 'get_order:', 2))).toEqual([
      { uri: orders(), range: { start: at(ORDERS, 'get_order'), end: at(ORDERS, 'get_order', 9) } },
      { uri: uriOf(dir, 'generated/shop/handlers.ts'), range: { start: at(HANDLERS, 'getOrder'), end: at(HANDLERS, 'getOrder', 8) } },
    ]);
    expect((await def(shop(), at(SHOP, 'shop/orders.yaml', 3))).map((l) => l.uri)).toEqual([orders()]);
  });

  it('finds references and renames a $defs entry and a tool everywhere they are named', async () => {
    const refs = await lsp.request<Location[]>('textDocument/references', { textDocument: { uri: orders() }, position: at(ORDERS, 'Priority:', 2), context: { includeDeclaration: false } });
    expect(refs.map((r) => `${r.uri === shop() ? 'shop' : 'orders'}:${r.range.start.line + 1}`).sort()).toEqual(['orders:8', 'shop:12', 'shop:25']);
    const edit = await lsp.request<WorkspaceEdit>('textDocument/rename', { textDocument: { uri: orders() }, position: at(ORDERS, 'get_order', 2), newName: 'fetch_order' });
    const newShop = applyEdits(SHOP, edit.changes![shop()]!);
    const newOrders = applyEdits(ORDERS, edit.changes![orders()]!);
    expect(newShop).toBe(SHOP.replaceAll('get_order', 'fetch_order'));
    expect(newOrders).toBe(ORDERS.replace('get_order', 'fetch_order'));
    const defRename = await lsp.request<WorkspaceEdit>('textDocument/rename', { textDocument: { uri: shop() }, position: at(SHOP, "'#/$defs/Priority'", 12), newName: 'Urgency' });
    expect(applyEdits(SHOP, defRename.changes![shop()]!)).toBe(SHOP.replace('    Priority:\n', '    Urgency:\n').replace("'#/$defs/Priority'", "'#/$defs/Urgency'"));
    expect(applyEdits(ORDERS, defRename.changes![orders()]!)).toBe(ORDERS.replaceAll('Priority', 'Urgency'));
  });

  it('outlines a spec file', async () => {
    const symbols = await lsp.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri: shop() } });
    expect(symbols.map((s) => `${s.name}: ${(s.children ?? []).map((c) => c.name).join(', ')}`)).toEqual(['toolsets: orders', 'tools: ping']);
    expect(readFileSync(join(dir, 'specs/shop.yaml'), 'utf8')).toBe(SHOP); // the server never writes
  });

  it('answers mcpgen/memory (what `npm run bench` judges "memory flat" by): both threads\' heaps and the RSS', async () => {
    const m = await lsp.request<{ serverHeap: number; checkerHeap: number; rss: number }>('mcpgen/memory', {});
    // Megabytes each (a thread's heap with the pipeline loaded); the bench reads growth between these answers.
    expect(m.checkerHeap).toBeGreaterThan(2 * 1024 * 1024);
    expect(m.serverHeap).toBeGreaterThan(2 * 1024 * 1024);
    expect(m.rss).toBeGreaterThan(m.serverHeap);
  });
});
