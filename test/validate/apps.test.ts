// MCP Apps rules (MCPG090–094) beyond the one-fixture-per-code cases in rules.test.ts, and what the
// model and the emitted definition make of a valid `apps:` section.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { definitionData } from '../../src/emit/definition-file.js';
import { emitServerPackage } from '../../src/emit/index.js';
import { check } from '../../src/pipeline.js';
import { originProblem, uiUriProblem } from '../../src/validate/rules/apps.js';
import { checkText, tempDir } from '../helpers.js';

const HEAD = 'mcpgen: 1\nserver: { name: apps, version: 1.0.0 }\n';
const VIEW = { 'view.html': '<!doctype html><p>hi</p>' };

function codes(result: ReturnType<typeof check>): string[] {
  return result.diagnostics.map((d) => `${d.code} ${d.path}: ${d.message}`);
}

describe('MCP Apps rules', () => {
  it('app and tool URIs must be ui:// with a name; duplicates and clashes with resources are refused', () => {
    const r = checkText(
      `${HEAD}resources:\n  - { uri: ui://apps/res, name: res }\napps:\n  - { uri: https://example.com/v, name: a, html: view.html }\n  - { uri: ui://apps/v, name: b, html: view.html }\n  - { uri: ui://apps/v, name: c, html: view.html }\n  - { uri: ui://apps/res, name: d, html: view.html }\n  - { uri: 'ui://', name: e, html: view.html }\ntools:\n  - { name: t1, ui: ui://apps/v }\n  - { name: t2, ui: { resource: 'file:///x' } }\n  - { name: t3, ui: ui://apps/res }\n`,
      VIEW,
    );
    expect(codes(r)).toEqual([
      'MCPG090 apps[0].uri: app URI "https://example.com/v" must start with "ui://" (MCP Apps views are ui:// resources)',
      'MCPG090 apps[2].uri: app URI "ui://apps/v" is declared twice (first at spec.yaml:7:12)',
      'MCPG090 apps[3].uri: app URI "ui://apps/res" is also declared under resources',
      'MCPG090 apps[4].uri: app URI "ui://" needs a name after "ui://" and no query or fragment (like "ui://weather/forecast")',
      'MCPG090 tools[1].ui.resource: tool "t2": ui "file:///x" must start with "ui://" (MCP Apps views are ui:// resources)',
      'MCPG090 tools[2].ui: tool "t3": ui "ui://apps/res" names no app declared under `apps` (did you mean "ui://apps/v"?)',
    ]);
  });

  it('the html file stays inside the project and must be UTF-8 text', () => {
    const dir = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.html'), '<p>secret</p>');
    mkdirSync(join(dir, 'ui'));
    symlinkSync(join(outside, 'secret.html'), join(dir, 'ui/link.html'));
    writeFileSync(join(dir, 'ui/latin1.html'), Buffer.from([0x3c, 0x70, 0x3e, 0xe9, 0x3c, 0x2f, 0x70, 0x3e]));
    writeFileSync(join(dir, 'ui/empty.html'), '  \n');
    execFileSync('mkfifo', [join(dir, 'ui/fifo.html')]);
    const entries = ['/etc/hostname', '../x.html', 'ui/link.html', 'ui/latin1.html', 'ui/empty.html', 'ui', 'ui/none.html', 'ui/fifo.html'];
    const apps = entries.map((html, i) => `  - { uri: ui://apps/v${i}, name: v${i}, html: '${html}' }`).join('\n');
    const tools = entries.map((_, i) => `  - { name: t${i}, ui: ui://apps/v${i} }`).join('\n');
    writeFileSync(join(dir, 'spec.yaml'), `${HEAD}apps:\n${apps}\ntools:\n${tools}\n`);
    const r = check([join(dir, 'spec.yaml')], dir);
    expect(codes(r)).toEqual([
      `MCPG091 apps[0].html: html "/etc/hostname" is an absolute path; give it relative to the spec, inside the spec's project "./"`,
      `MCPG091 apps[1].html: html "../x.html" reaches outside the spec's project "./"`,
      `MCPG091 apps[2].html: html "ui/link.html" reaches outside the spec's project "./"`,
      'MCPG091 apps[3].html: html "ui/latin1.html" is not UTF-8 text',
      'MCPG091 apps[4].html: html "ui/empty.html" is empty',
      'MCPG091 apps[5].html: html "ui" is not a regular file',
      'MCPG091 apps[6].html: html "ui/none.html": no such file',
      'MCPG091 apps[7].html: html "ui/fifo.html" is not a regular file',
    ]);
  });

  it('apps belong in the root spec (their html paths are relative to it)', () => {
    const r = checkText(`${HEAD}include: [more.yaml]\n`, { 'more.yaml': 'apps:\n  - { uri: ui://apps/v, name: v, html: view.html }\n', ...VIEW });
    expect(codes(r)).toEqual(['MCPG008 apps: "apps" belongs in the root spec, not in an included file']);
  });

  it('CSP domains are origins: scheme://host[:port], a *. wildcard, no path', () => {
    for (const ok of ['https://api.example.com', 'https://*.example.com', 'wss://live.example.com:8443', 'http://localhost:3000', 'https://[::1]:8443', 'https://API.Example.com']) expect(originProblem(ok), ok).toBeUndefined();
    const bad: Record<string, RegExp> = {
      'api.example.com': /expected scheme:\/\/host/,
      'ftp://files.example.com': /scheme "ftp:"/,
      'https://api.example.com/': /has a path/,
      'https://api.example.com?x=1': /has a path, query or fragment/,
      'https://user@api.example.com': /user info/,
      'https://exa mple.com': /whitespace/,
      'https://0x7f.1': /not a plain host/,
      'https://api.example.com:99999': /not a valid host/,
      "https://api.example.com; script-src 'unsafe-eval'": /whitespace/,
      'https://api.example.com;': /not a valid host/,
      "https://a.example.com'": /not a valid host/,
    };
    for (const [value, message] of Object.entries(bad)) expect(originProblem(value), value).toMatch(message);
    expect(uiUriProblem('ui://weather/forecast')).toBeUndefined();
    expect(uiUriProblem('ui://weather/forecast?x=1')).toMatch(/no query or fragment/);
  });

  it('a valid app reaches the definition: tool _meta.ui (+ legacy key), the view with _meta.ui, the extension announced', () => {
    const r = checkText(
      `${HEAD}apps:\n  - uri: ui://apps/v\n    name: v\n    title: View\n    html: view.html\n    csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com'] }\n    permissions: [camera, clipboardWrite]\n    domain: v.example.com\n    prefersBorder: false\ntools:\n  - { name: t, ui: { resource: ui://apps/v, visibility: [model, app] } }\n  - { name: plain }\n`,
      VIEW,
    );
    expect(r.diagnostics).toEqual([]);
    const data = definitionData(r.models[0]!) as { capabilities: { extensions?: object }; tools: { definition: { _meta?: unknown } }[]; apps: unknown[] };
    expect(data.capabilities.extensions).toEqual({ 'io.modelcontextprotocol/ui': {} });
    expect(data.tools[0]!.definition._meta).toEqual({ ui: { resourceUri: 'ui://apps/v', visibility: ['model', 'app'] }, 'ui/resourceUri': 'ui://apps/v' });
    expect(data.tools[1]!.definition).not.toHaveProperty('_meta');
    expect(data.apps).toEqual([
      {
        definition: {
          uri: 'ui://apps/v',
          name: 'v',
          title: 'View',
          mimeType: 'text/html;profile=mcp-app',
          _meta: { ui: { csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com'] }, permissions: { camera: {}, clipboardWrite: {} }, domain: 'v.example.com', prefersBorder: false } },
        },
        html: VIEW['view.html'],
      },
    ]);
  });

  it('any view text survives embedding: definition.ts evaluates back to the exact HTML', () => {
    const html = '<!doctype html><script>const s = `${"x"}`; /* */ "\\u2028" \u2028\u2029 </script>\r\n\uFEFFend\0';
    const r = checkText(`${HEAD}apps:\n  - { uri: ui://apps/v, name: v, html: view.html }\ntools:\n  - { name: t, ui: ui://apps/v }\n`, { 'view.html': html });
    const file = emitServerPackage(r.models[0]!).find((f) => f.path === 'definition.ts')!;
    const literal = /export const definition: ServerDefinition = ([\s\S]*?);\s*\/\*\*/.exec(file.content)![1]!;
    const data = new Function(`return (${literal});`)() as { apps: { html: string }[] };
    expect(data.apps[0]!.html).toBe(html);
  });

  it('a spec without apps announces no extension; a changed view changes the spec hash', () => {
    const plain = checkText(`${HEAD}tools:\n  - { name: t }\n`);
    expect(definitionData(plain.models[0]!)).not.toHaveProperty('apps');
    expect((definitionData(plain.models[0]!) as { capabilities: object }).capabilities).not.toHaveProperty('extensions');
    const spec = `${HEAD}apps:\n  - { uri: ui://apps/v, name: v, html: view.html }\ntools:\n  - { name: t, ui: ui://apps/v }\n`;
    const a = checkText(spec, VIEW).models[0]!;
    const b = checkText(spec, { 'view.html': '<p>changed</p>' }).models[0]!;
    expect(a.specHash).not.toBe(b.specHash);
  });
});
