// Issue 47: checks never block the editor. A large spec's check runs in a worker thread: a hover sent while
// it runs is answered before it ends, and a check whose text changed meanwhile is dropped unpublished (the
// newest text wins). Bounded by ordering: the check is shown as progress only once it has run a while, the
// hover is sent then, and it must come back before the check's end and its diagnostics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hover } from 'vscode-languageserver-protocol';
import { LspClient, uriOf, writeProject } from '../support/lsp-client.js';

const SMALL = 'mcpgen: 1\nserver:\n  name: small\n  version: 1.0.0\ntools:\n  - name: ping\n    description: Health check.\n';
/** The benchmarks' synthetic spec (plain JavaScript: imported by URL). */
const { syntheticSpec } = (await import(new URL('../../bench/synthetic-spec.mjs', import.meta.url).href)) as { syntheticSpec: (tools: number, name: string) => string };
/** A spec whose first check takes seconds; one typo in it (MCPG003). */
const BIG = syntheticSpec(2000, 'big').replace('    description: Synthetic tool number 7', '    descripton: Synthetic tool number 7');

describe('mcpgen lsp while a large spec is checked (issue 47)', () => {
  let lsp: LspClient;
  const events: string[] = [];
  let onBegin = (): void => undefined;

  beforeAll(async () => {
    lsp = new LspClient(writeProject({ 'specs/small.yaml': SMALL }));
    lsp.connection.onRequest('window/workDoneProgress/create', () => null);
    lsp.connection.onNotification('$/progress', (p: { value: { kind: string } }) => {
      events.push(`progress ${p.value.kind}`);
      if (p.value.kind === 'begin') onBegin();
    });
    await lsp.initialize({ window: { workDoneProgress: true } });
    await lsp.open('specs/small.yaml', SMALL);
    await lsp.diagnosticsOf('specs/small.yaml', (d) => d.length === 0);
  });
  afterAll(async () => {
    expect(await lsp?.close()).toBe(0);
  });

  it('answers a hover during the check, and publishes only the newest text', async () => {
    const big = uriOf(lsp.dir, 'specs/big.yaml');
    // Where this check's progress begins (the first check, the worker starting, may have shown some too).
    const began = new Promise<number>((ok) => (onBegin = () => ok(events.length - 1)));
    await lsp.open('specs/big.yaml', BIG);
    const at = await began;
    // The typo mended while version 1 is checked (one character, as an editor sends it): version 1's
    // diagnostics are stale before they are made, and only version 2's may be published.
    const typo = BIG.indexOf('descripton: Synthetic tool number 7') + 'descript'.length;
    const line = BIG.slice(0, typo).split('\n').length - 1;
    const character = typo - BIG.lastIndexOf('\n', typo - 1) - 1;
    const edit = { range: { start: { line, character }, end: { line, character } }, text: 'i' };
    await lsp.connection.sendNotification('textDocument/didChange', { textDocument: { uri: big, version: 2 }, contentChanges: [edit] });
    const hover = await lsp.request<Hover | null>('textDocument/hover', { textDocument: { uri: uriOf(lsp.dir, 'specs/small.yaml') }, position: { line: 5, character: 5 } });
    events.push('hover answered');
    expect(JSON.stringify(hover?.contents)).toContain('ping');
    await lsp.diagnosticsOf('specs/big.yaml', () => lsp.published.some((p) => p.uri === big));
    expect(events.slice(at, at + 2)).toEqual(['progress begin', 'hover answered']);
    expect(lsp.published.filter((p) => p.uri === big).map((p) => [p.version, p.diagnostics.length])).toEqual([[2, 0]]);
  });
});
