// Resource template values (R3): decoded, refused before any handler runs when they leave their segment,
// "" (not missing) when empty, and `{+path}` values with "?"/"#" round-tripping between the generated
// client and server of one spec. Plus the handlers' half: resolveInRoot / realPathInRoot and the scaffold.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FilesClient } from '../../generated/files/client.js';
import type { createFilesServer as CreateFilesServer, FilesHandlers } from '../../generated/files/server.js';
import { createMcpgenServer, realPathInRoot, resolveInRoot, type ServerDefinition } from '../../packages/runtime/src/server/index.js';
import { expandUriTemplate, matchUriTemplate, MAX_MATCHED_URI } from '../../packages/runtime/src/shared/uri-template.js';
import { cli, tempDir } from '../helpers.js';
import { prng } from '../support/prng.js';
import { importCompiled } from '../support/servers.js';
import { mcpRequest } from '../support/mcp-request.js';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

const definition: ServerDefinition = {
  info: { name: 'templates', version: '1.0.0' },
  capabilities: { resources: {} },
  listCache: { ttlMs: 0, cacheScope: 'private' },
  tools: [],
  resources: [],
  resourceTemplates: [
    { definition: { uriTemplate: 'file:///project/{+path}', name: 'file' }, method: 'readFile' },
    { definition: { uriTemplate: 'git://project/{ref}/log{?limit}', name: 'log' }, method: 'readLog' },
    { definition: { uriTemplate: 'tree://x{/parts*}', name: 'tree' }, method: 'readTree' },
  ],
  prompts: [],
};

const seen: unknown[] = [];
const record = (vars: unknown) => {
  seen.push(vars);
  return JSON.stringify(vars);
};
const handler = createMcpgenServer(definition, { readFile: record, readLog: record, readTree: record }).http();

async function read(uri: string): Promise<{ vars?: unknown; code?: number; ran: boolean }> {
  const before = seen.length;
  const name = encodeURI(uri) === uri ? uri : `=?base64?${Buffer.from(uri).toString('base64')}?=`;
  const response = await handler.fetch(mcpRequest('resources/read', { uri, _meta: META }, { name }));
  const json = (await response.json()) as { result?: { contents: { text: string }[] }; error?: { code: number } };
  const ran = seen.length > before;
  return json.error !== undefined ? { code: json.error.code, ran } : { vars: JSON.parse(json.result!.contents[0]!.text), ran };
}

describe('template values reach handlers decoded, or not at all', () => {
  const REFUSED = { code: -32602, ran: false };
  const rows: [string, { vars?: unknown; code?: number; ran: boolean }][] = [
    ['file:///project/src/index.ts', { vars: { path: 'src/index.ts' }, ran: true }],
    ['file:///project/src/x%20y%2Fz.ts', { vars: { path: 'src/x y/z.ts' }, ran: true }],
    ['file:///project/%2e%2e/%2e%2e/etc/passwd', REFUSED],
    ['file:///project/src/%2E%2E/%2E%2E/etc/passwd', REFUSED],
    ['file:///project/../etc/passwd', REFUSED],
    ['file:///project/./a', REFUSED],
    ['file:///project//etc/passwd', REFUSED],
    ['file:///project/%2F/etc/passwd', REFUSED],
    ['file:///project/src//index.ts', REFUSED],
    ['file:///project/a%00b', REFUSED],
    ['file:///project/a%5C..%5C..%5Cb', REFUSED],
    ['file:///project/', { vars: { path: '' }, ran: true }],
    ['file:///project/src/', { vars: { path: 'src/' }, ran: true }],
    ['file:///project/q?x=1', { vars: { path: 'q?x=1' }, ran: true }],
    ['file:///project/a#b', { vars: { path: 'a#b' }, ran: true }],
    ['file:///project/100%25', { vars: { path: '100%' }, ran: true }],
    ['git://project/main/log', { vars: { ref: 'main' }, ran: true }],
    ['git://project//log', { vars: { ref: '' }, ran: true }],
    ['git://project/main/log?limit=5', { vars: { ref: 'main', limit: '5' }, ran: true }],
    ['git://project/main/log?limit=', { vars: { ref: 'main', limit: '' }, ran: true }],
    ['git://project/..%2F..%2Fsecret/log', REFUSED],
    ['git://project/a%2Fb/log', REFUSED],
    ['git://project/%2e%2e/log', REFUSED],
    ['git://project/./log', REFUSED],
    ['git://project/a%5Cb/log', REFUSED],
    ['git://project/a%00/log', REFUSED],
    ['git://project/main/log?limit=a%00', REFUSED],
    ['git://project/%ZZ/log', REFUSED], // malformed percent-encoding: no match, -32602 not found
    ['tree://x/a/b', { vars: { parts: ['a', 'b'] }, ran: true }],
    ['tree://x/a/%2e%2e', REFUSED],
    ['tree://x/a%2Fb', REFUSED],
  ];
  for (const [uri, expected] of rows) {
    it(`${expected.ran ? 'passes' : 'refuses'} ${uri}`, async () => {
      expect(await read(uri)).toEqual(expected);
    });
  }
});

describe('expansion and matching are inverses', () => {
  it('gives back 4,000 seeded random values (empty, all of "?#%/&=,;." and non-ASCII) through each kind of expression', () => {
    const r = prng(9);
    const templates: [string, (v: () => string) => Record<string, string | string[]>][] = [
      ['file:///project/{+path}', (v) => ({ path: v() })],
      ['file:///project/{+path}{?rev}', (v) => ({ path: v(), rev: v() })],
      ['file:///project/{+path}{#frag}', (v) => ({ path: v(), frag: v() })],
      ['git://project/{ref}/log{?limit,since}', (v) => ({ ref: v(), limit: v(), since: v() })],
      ['tree://x{/parts*}', (v) => ({ parts: [v(), v(), v()].filter((p) => p !== '') })],
      ['m://x/{id}{;mode}', (v) => ({ id: v(), mode: v() })],
      ['n://x/{name}{.ext}', (v) => ({ name: v(), ext: v() })],
      ['n://x{/dir}{/name}{.ext}', (v) => ({ dir: v(), name: v(), ext: v() })],
      ['q://x?fixed=1{&a,b}', (v) => ({ a: v(), b: v() })],
    ];
    const failures: string[] = [];
    for (let i = 0; i < 4000; i++) {
      const [template, make] = r.pick(templates);
      const vars = make(() => (r.int(6) === 0 ? '' : r.string(8)));
      const uri = expandUriTemplate(template, vars);
      const back = matchUriTemplate(template, uri);
      if (JSON.stringify(back) !== JSON.stringify(Object.fromEntries(Object.keys(back ?? {}).map((k) => [k, vars[k]]))) || Object.keys(back ?? {}).length !== Object.keys(vars).length) {
        if (failures.length < 5) failures.push(`${template} ${JSON.stringify(vars)} → ${uri} → ${JSON.stringify(back)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('long URIs', () => {
  it(`match templates up to ${MAX_MATCHED_URI} characters (adjacent {+a}{+b} make matching quadratic), and no further`, async () => {
    const path = (n: number) => 'a'.repeat(n - 'file:///project/'.length);
    expect(matchUriTemplate('file:///project/{+path}', `file:///project/${path(MAX_MATCHED_URI)}`)).toEqual({ path: path(MAX_MATCHED_URI) });
    expect(matchUriTemplate('file:///project/{+path}', `file:///project/${path(MAX_MATCHED_URI + 1)}`)).toBeNull();
    expect(await read(`file:///project/${path(MAX_MATCHED_URI + 1)}`)).toEqual({ code: -32602, ran: false });
  });
});

describe('generated client and server of one spec (files) round-trip template values', () => {
  it('sends {+path} values with "?", "#", "%", spaces and non-ASCII and gets them back unchanged; refuses traversal', async () => {
    const { createFilesServer } = await importCompiled<{ createFilesServer: typeof CreateFilesServer }>('files', 'server.js');
    const { handlers } = await importCompiled<{ handlers: FilesHandlers }>('files', 'handlers.js');
    const { FilesClient: Files } = await importCompiled<{ FilesClient: typeof FilesClient }>('files', 'client.js');
    const echo: FilesHandlers = { ...handlers, readProjectFile: (v) => JSON.stringify(v), readGitLog: (v) => JSON.stringify(v) };
    const running = await createFilesServer(echo).listen({ port: 0 });
    const client = await Files.connect({ url: running.url });
    const text = (r: { contents: unknown[] }) => JSON.parse((r.contents[0] as { text: string }).text) as unknown;
    try {
      for (const path of ['q?x=1', 'a#b', 'dir/q?x=1#frag', '100%25 done', 'é/ü ß', '', 'src/']) {
        expect(text(await client.readProjectFile({ path })), path).toEqual({ path });
      }
      for (const vars of [{ ref: 'feature/x?#' }, { ref: 'main', limit: '5&x=1' }, { ref: '' }]) {
        const r = client.readGitLog(vars);
        if (vars.ref.includes('/')) await expect(r).rejects.toMatchObject({ code: -32602 });
        else expect(text(await r)).toEqual(vars);
      }
      for (const path of ['../etc/passwd', 'src/../../x', '/etc/passwd', 'a\\..\\b', 'a\u0000b']) {
        await expect(client.readProjectFile({ path }), path).rejects.toMatchObject({ code: -32602 });
      }
    } finally {
      await client.close();
      await running.close(500);
    }
  });
});

describe('resolving a value inside a root (the handler side)', () => {
  it('resolveInRoot keeps paths inside the root; realPathInRoot also through symlinks', async () => {
    const dir = tempDir();
    const root = join(dir, 'root');
    mkdirSync(join(root, 'src'), { recursive: true });
    writeFileSync(join(root, 'src/a.txt'), 'a');
    writeFileSync(join(dir, 'secret.txt'), 's');
    symlinkSync(join(dir, 'secret.txt'), join(root, 'escape.txt'));
    symlinkSync(join(root, 'src/a.txt'), join(root, 'inside.txt'));
    expect(resolveInRoot(root, 'src/a.txt')).toBe(join(root, 'src/a.txt'));
    expect(resolveInRoot(root, ['src', 'a.txt'])).toBe(join(root, 'src/a.txt'));
    expect(resolveInRoot(root, '')).toBe(root);
    expect(resolveInRoot(root, '..foo')).toBe(join(root, '..foo'));
    for (const bad of ['../secret.txt', 'src/../../secret.txt', 'a\\..\\..\\b', 'a\u0000']) expect(resolveInRoot(root, bad), bad).toBeUndefined();
    expect(resolveInRoot(root, '/etc/passwd')).toBe(join(root, 'etc/passwd')); // a leading "/" stays inside
    expect(await realPathInRoot(root, 'src/a.txt')).toBe(join(root, 'src/a.txt'));
    expect(await realPathInRoot(root, 'inside.txt')).toBe(join(root, 'src/a.txt'));
    expect(await realPathInRoot(root, 'escape.txt')).toBeUndefined();
    expect(await realPathInRoot(root, 'missing.txt')).toBeUndefined();
    expect(await realPathInRoot(root, '../secret.txt')).toBeUndefined();
  });

  it('the scaffold of a file:// template and the generated README show the safe way', async () => {
    const out = tempDir();
    expect((await cli(['generate', 'specs/files.yaml', '--out', out])).code).toBe(0);
    const scaffold = readFileSync(join(out, 'files/handlers.ts'), 'utf8');
    expect(scaffold).toMatch(/async readProjectFile\(variables\) \{\n\s+\/\/ Resolve template values inside a root directory[\s\S]*realPathInRoot\('\/srv\/files', variables\.<name>\)/);
    expect(scaffold).not.toMatch(/async readGitLog\(variables\)/); // git:// is not a file template
    const readme = readFileSync(join(out, 'files/README.md'), 'utf8');
    expect(readme).toContain('### Reading files safely');
    expect(readme).toContain("const file = await realPathInRoot('/srv/files', variables.path);");
  });
});
