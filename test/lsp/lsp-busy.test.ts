// Issue 47: checks never block the editor. A large spec's check runs in a worker thread: a hover sent while
// it runs is answered before it ends, and a check whose text changed meanwhile is dropped unpublished (the
// newest text wins). Bounded by ordering, not by the clock: the large spec's opening, an edit to it and the
// hover are written in one go, so the server holds the hover before the first check can have ended; it
// must come back before that check's progress ends (a check this long is shown as progress) and before any
// diagnostics of the large spec. (Sending the hover only once the progress began let a starved test process
// see the whole check end first.)
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
  let ended = (): void => undefined;

  beforeAll(async () => {
    lsp = new LspClient(writeProject({ 'specs/small.yaml': SMALL }));
    lsp.connection.onRequest('window/workDoneProgress/create', () => (events.push('progress create'), null));
    lsp.connection.onNotification('$/progress', (p: { value: { kind: string } }) => {
      events.push(`progress ${p.value.kind}`);
      if (p.value.kind === 'end') ended();
    });
    await lsp.initialize({ window: { workDoneProgress: true } });
    await lsp.open('specs/small.yaml', SMALL);
    await lsp.diagnosticsOf('specs/small.yaml', (d) => d.length === 0);
    // The first check (the worker starting) may have shown progress too: wait for its end, so that every
    // progress event the test looks at belongs to the large spec's check. Counted from the server's
    // `create` request, not from `begin`: the server sends `begin` only once the client has answered
    // `create`, so a first check that ends just after its progress was asked for publishes its
    // diagnostics before its `begin` (seen in CI on a loaded machine: that begin and end then came
    // after the test's hover).
    const count = (kind: string) => events.filter((e) => e === `progress ${kind}`).length;
    while (count('create') > count('end')) await new Promise<void>((ok) => (ended = ok));
  });
  afterAll(async () => {
    expect(await lsp?.close()).toBe(0);
  });

  it('answers a hover during the check, and publishes only the newest text', async () => {
    const big = uriOf(lsp.dir, 'specs/big.yaml');
    // The typo mended while version 1 is checked (one character, as an editor sends it): version 1's
    // diagnostics are stale before they are made, and only version 2's may be published.
    const typo = BIG.indexOf('descripton: Synthetic tool number 7') + 'descript'.length;
    const line = BIG.slice(0, typo).split('\n').length - 1;
    const character = typo - BIG.lastIndexOf('\n', typo - 1) - 1;
    const edit = { range: { start: { line, character }, end: { line, character } }, text: 'i' };
    const from = events.length;
    const progressEnded = new Promise<void>((ok) => (ended = ok));
    const opened = lsp.open('specs/big.yaml', BIG);
    const changed = lsp.connection.sendNotification('textDocument/didChange', { textDocument: { uri: big, version: 2 }, contentChanges: [edit] });
    const hover = await lsp.request<Hover | null>('textDocument/hover', { textDocument: { uri: uriOf(lsp.dir, 'specs/small.yaml') }, position: { line: 5, character: 5 } });
    events.push('hover answered');
    await Promise.all([opened, changed]);
    expect(JSON.stringify(hover?.contents)).toContain('ping');
    expect(lsp.published.some((p) => p.uri === big)).toBe(false);
    await lsp.diagnosticsOf('specs/big.yaml', () => lsp.published.some((p) => p.uri === big));
    await progressEnded;
    const seen = events.slice(from);
    expect(seen).toContain('progress begin');
    expect(seen.indexOf('hover answered')).toBeLessThan(seen.indexOf('progress end'));
    expect(lsp.published.filter((p) => p.uri === big).map((p) => [p.version, p.diagnostics.length])).toEqual([[2, 0]]);
  });
});
