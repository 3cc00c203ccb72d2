import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from '../../src/pipeline.js';
import { CODES } from '../../src/diagnostics/codes.js';
import { checkText, ROOT } from '../helpers.js';

const FIXTURES = join(ROOT, 'test/fixtures/invalid');

interface Want {
  readonly code: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
  readonly file?: string;
  readonly path?: string;
}

// One invalid fixture per rule, and the exact diagnostic it must produce (and nothing else).
const CASES: Record<string, Want[]> = {
  'MCPG001-syntax.yaml': [{ code: 'MCPG001', line: 5, column: 1, message: 'Flow sequence' }],
  'MCPG002-duplicate-key.yaml': [{ code: 'MCPG002', line: 5, column: 3, message: 'duplicate key' }],
  'MCPG003-unknown-key.yaml': [{ code: 'MCPG003', line: 7, column: 5, message: 'unknown key "descripton" in "tools[0]"; did you mean "description"?', path: 'tools[0].descripton' }],
  'MCPG004-wrong-type.yaml': [{ code: 'MCPG004', line: 7, column: 15, message: '"tools[0].progress" must be a boolean, got the string "yes"' }],
  'MCPG005-missing-key.yaml': [
    { code: 'MCPG005', line: 3, column: 3, message: 'missing required key "version" in "server"' },
    { code: 'MCPG005', line: 5, column: 5, message: 'missing required key "name" in "resources[0]"' },
  ],
  'MCPG006-enum.yaml': [{ code: 'MCPG006', line: 6, column: 15, message: '"cache.cacheScope" is "everyone"; allowed: "public", "private"' }],
  'MCPG007-alias-bomb.yaml': [{ code: 'MCPG007', line: 1, column: 1, message: 'refusing to expand YAML aliases' }],
  'MCPG008-include-missing.yaml': [{ code: 'MCPG008', line: 6, column: 5, message: 'cannot include "does-not-exist.yaml": no such file' }],
  'MCPG009-version.yaml': [{ code: 'MCPG009', line: 6, column: 12, message: '"protocol.version" is "2025-11-25"; supported: "2026-07-28"' }],
  'MCPG010-tool-name.yaml': [{ code: 'MCPG010', line: 6, column: 11, message: 'tool name "get weather" is invalid: " " is not allowed' }],
  'MCPG011-duplicate-tool.yaml': [{ code: 'MCPG011', line: 7, column: 11, message: 'duplicate tool name "search" (first declared at test/fixtures/invalid/MCPG011-duplicate-tool.yaml:6:11)' }],
  'MCPG012-identifier-collision.yaml': [{ code: 'MCPG012', line: 7, column: 11, message: 'tool "get-user" and tool "get_user" (test/fixtures/invalid/MCPG012-identifier-collision.yaml:6:11) both become the TypeScript method "getUser"' }],
  'MCPG013-header-token.yaml': [{ code: 'MCPG013', line: 10, column: 47, message: 'x-mcp-header "Re gion" has " "' }],
  'MCPG014-header-duplicate.yaml': [{ code: 'MCPG014', line: 11, column: 45, message: 'x-mcp-header "Region" duplicates "region" (case-insensitive) in tool execute_sql' }],
  'MCPG015-header-number.yaml': [{ code: 'MCPG015', line: 10, column: 16, message: 'number is forbidden' }],
  'MCPG016-header-unreachable.yaml': [{ code: 'MCPG016', line: 12, column: 34, message: 'not through "items"' }],
  'MCPG017-header-secret.yaml': [{ code: 'MCPG017', line: 10, column: 47, message: 'x-mcp-header "Api-Key" mirrors "apiKey", which looks secret' }],
  'MCPG018-input-not-object.yaml': [{ code: 'MCPG018', line: 8, column: 13, message: 'must have "type: object" at its root' }],
  'MCPG019-ajv-strict.yaml': [{ code: 'MCPG019', line: 8, column: 7, message: 'unknown format "timestamp"' }],
  'MCPG019-pattern.yaml': [{ code: 'MCPG019', line: 10, column: 40, message: 'pattern "([A-Z]+" cannot be used in input schema of tool "t": Unterminated group', path: 'tools[0].input.properties.code.pattern' }],
  'MCPG020-unknown-keyword.yaml': [{ code: 'MCPG020', line: 10, column: 29, message: 'unknown JSON Schema keyword "minimun" in input schema of tool "t"; did you mean "minimum"?' }],
  'MCPG021-required.yaml': [{ code: 'MCPG021', line: 11, column: 24, message: '"required" names "country", which is not among the properties (city)' }],
  'MCPG022-default.yaml': [{ code: 'MCPG022', line: 10, column: 53, message: 'default value 0 is invalid against its schema' }],
  'MCPG023-ref.yaml': [{ code: 'MCPG023', line: 10, column: 24, message: '$ref "#/$defs/Unit" does not resolve' }],
  'MCPG024-uri.yaml': [{ code: 'MCPG024', line: 6, column: 10, message: 'resource URI "/relative/path" is not an absolute URI' }],
  'MCPG025-template.yaml': [{ code: 'MCPG025', line: 6, column: 18, message: 'unclosed "{"' }],
  'MCPG026-template-var.yaml': [{ code: 'MCPG026', line: 6, column: 18, message: 'variable "table" appears twice' }],
  'MCPG027-prompt-arg.yaml': [{ code: 'MCPG027', line: 9, column: 15, message: 'argument "topic" appears twice in prompt "p"' }],
  'MCPG028-icon.yaml': [{ code: 'MCPG028', line: 6, column: 12, message: 'icon src "javascript:alert(1)"' }],
  'MCPG029-elicit.yaml': [{ code: 'MCPG029', line: 14, column: 15, message: 'property "address" must have type string' }],
  'MCPG030-capability.yaml': [{ code: 'MCPG030', line: 6, column: 10, message: 'capabilities.tools is false, but the spec declares 1 tool(s)' }],
  'MCPG031-defs.yaml': [{ code: 'MCPG031', line: 2, column: 3, file: 'test/fixtures/invalid/MCPG031/part.yaml', message: '$defs "Shared" is already defined at test/fixtures/invalid/MCPG031-defs.yaml:8:11' }],
  'MCPG070-undeclared-scope.yaml': [{ code: 'MCPG070', line: 9, column: 14, message: 'scope "files.raed" is not declared under auth.scopes; did you mean "files.read"?', path: 'tools[0].scopes[0]' }],
  'MCPG071-no-issuer.yaml': [{ code: 'MCPG071', line: 4, column: 3, message: '`auth` needs at least one authorization server' }],
  'MCPG072-issuer.yaml': [{ code: 'MCPG072', line: 6, column: 7, message: 'authorization server "http://auth.example.com" uses http on a non-loopback host (https is required)' }],
  'MCPG073-resource.yaml': [{ code: 'MCPG073', line: 5, column: 13, message: 'auth.resource "https://mcp.example.com/mcp#frag" has a fragment' }],
  'MCPG074-scopes-without-auth.yaml': [{ code: 'MCPG074', line: 5, column: 5, message: 'this entry lists `scopes`, but the spec has no `auth:` section' }],
  'MCPG075-offline-access.yaml': [{ code: 'MCPG075', line: 6, column: 5, message: 'scope "offline_access" is `offline_access`' }],
  'MCPG076-documentation.yaml': [{ code: 'MCPG076', line: 5, column: 18, message: 'auth.documentation "docs/auth.md" is not an absolute http(s) URL' }],
};

describe('one fixture per rule', () => {
  it('covers every diagnostic code', () => {
    const covered = new Set(Object.values(CASES).flatMap((ws) => ws.map((w) => w.code)));
    expect([...covered].sort()).toEqual(Object.keys(CODES).sort());
  });

  for (const [fixture, wants] of Object.entries(CASES)) {
    it(`${fixture} → ${wants.map((w) => `${w.code}@${w.line}:${w.column}`).join(', ')}`, () => {
      const file = join(FIXTURES, fixture);
      const result = check([file], ROOT);
      const got = result.diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column, file: d.file, path: d.path, message: d.message }));
      expect(got).toHaveLength(wants.length);
      wants.forEach((w, i) => {
        const d = got[i]!;
        expect({ code: d.code, line: d.line, column: d.column }).toEqual({ code: w.code, line: w.line, column: w.column });
        expect(d.message).toContain(w.message);
        expect(d.file).toBe(w.file ?? `test/fixtures/invalid/${fixture}`);
        if (w.path !== undefined) expect(d.path).toBe(w.path);
      });
      expect(result.models).toHaveLength(0 + (wants.every((w) => CODES[w.code as keyof typeof CODES].severity === 'warning') ? 1 : 0));
    });
  }
});

describe('patterns V8 parses but cannot run', () => {
  // Found by `npm run fuzz`: a 50,000-character pattern compiles in ajv, then throws "Regular
  // expression too large" the first time a default is checked against it.
  it('are reported where they stand, not thrown', () => {
    const pattern = 'x'.repeat(50_000);
    const result = checkText(`mcpgen: 1\nserver: { name: p, version: 1.0.0 }\ntools:\n  - name: t\n    input:\n      type: object\n      properties:\n        id: { type: string, pattern: ${pattern}, default: x }\n        tags: { type: object, patternProperties: { "${pattern}": { type: string } } }\n`);
    expect(result.diagnostics.map((d) => [d.code, d.line, d.path, d.message.endsWith('cannot be used in input schema of tool "t": Regular expression too large')])).toEqual([
      ['MCPG019', 8, 'tools[0].input.properties.id.pattern', true],
      ['MCPG019', 9, `tools[0].input.properties.tags.patternProperties.${pattern}`, true],
    ]);
  });

  it('point at the pattern value even in a property that is named patternProperties', () => {
    const result = checkText('mcpgen: 1\nserver: { name: p, version: 1.0.0 }\ntools:\n  - name: t\n    input:\n      type: object\n      properties:\n        patternProperties: { type: string, pattern: "(" }\n');
    expect(result.diagnostics.map((d) => [d.code, d.line, d.column, d.path])).toEqual([['MCPG019', 8, 53, 'tools[0].input.properties.patternProperties.pattern']]);
  });
});

describe('auth rules beyond the fixtures', () => {
  it('refuse scope names outside the OAuth scope-token grammar, a query on an issuer, and scopes on resources and templates', () => {
    const result = checkText(
      'mcpgen: 1\nserver: { name: s, version: 1.0.0 }\nauth:\n  authorizationServers: ["https://a.example.com/?x=1", "http://127.0.0.1:8080", "ftp://a.example.com"]\n  scopes:\n    "files read": x\n    ok: y\n  requiredScopes: [nope]\n' +
        'resources:\n  - { uri: "file:///a", name: a, scopes: [ok, other] }\nresourceTemplates:\n  - { uriTemplate: "file:///{x}", name: b, scopes: [ok] }\n',
    );
    expect(result.diagnostics.map((d) => [d.code, d.path, d.message])).toEqual([
      ['MCPG072', 'auth.authorizationServers[0]', 'authorization server "https://a.example.com/?x=1" has a query'],
      ['MCPG072', 'auth.authorizationServers[2]', 'authorization server "ftp://a.example.com" uses ftp (https is required)'],
      ['MCPG075', 'auth.scopes["files read"]', 'scope "files read" is not an OAuth scope-token (printable ASCII, no spaces, quotes or backslashes)'],
      ['MCPG070', 'auth.requiredScopes[0]', 'scope "nope" is not declared under auth.scopes; declared: files read, ok'],
      ['MCPG070', 'resources[0].scopes[1]', 'scope "other" is not declared under auth.scopes; declared: files read, ok'],
    ]);
  });

  it('accept a complete auth section', () => {
    const result = checkText('mcpgen: 1\nserver: { name: s, version: 1.0.0 }\nauth:\n  authorizationServers: [https://a.example.com]\n  resource: https://mcp.example.com/mcp\n  scopes: { r: Read }\n  requiredScopes: [r]\ntools:\n  - { name: t, scopes: [r] }\n');
    expect(result.diagnostics).toEqual([]);
    expect(result.models).toHaveLength(1);
  });

  it('keep auth in the root file, and check the scopes of included items against it', () => {
    const result = checkText('mcpgen: 1\nserver: { name: s, version: 1.0.0 }\nauth: { authorizationServers: [https://a.example.com], scopes: { r: Read } }\ninclude: [more.yaml]\n', {
      'more.yaml': 'auth: { authorizationServers: [https://b.example.com] }\ntools:\n  - { name: t, scopes: [r, w] }\n',
    });
    expect(result.diagnostics.map((d) => [d.code, d.file.endsWith('more.yaml'), d.path])).toEqual([
      ['MCPG008', true, 'auth'],
      ['MCPG070', true, 'tools[0].scopes[1]'],
    ]);
  });
});
