// What `import openapi` reports, at file:line:col of the OpenAPI description: one fixture per code.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { check } from '../../src/pipeline.js';
import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../../src/import/openapi/index.js';
import { ROOT } from '../support/root.js';

const CASES: Record<string, { code: string; line: number; column: number; message: RegExp; path: string }[]> = {
  'MCPG130-not-openapi.yaml': [{ code: 'MCPG130', line: 2, column: 1, message: /^not a readable OpenAPI description: Unsupported OpenAPI version: undefined/, path: '$' }],
  'MCPG131-media-range.yaml': [{ code: 'MCPG131', line: 9, column: 11, message: /^POST \/files skipped: no request body type the proxy can send among image\/\*$/, path: 'paths["/files"].post.requestBody.content' }],
  'MCPG132-security.yaml': [
    { code: 'MCPG132', line: 18, column: 10, message: /^security scheme "tls" \(mutualTLS\) is not filled by the proxy yet/, path: 'components.securitySchemes.tls' },
    { code: 'MCPG132', line: 16, column: 7, message: /^security scheme "user" \(oauth2\) has no client credentials flow: the proxy sends the access token in SECURED_USER as a bearer token$/, path: 'components.securitySchemes.user' },
  ],
  // One warning per repaired or dropped keyword, at the keyword in the description (check then finds no error).
  'MCPG191-schema-repairs.yaml': [
    { code: 'MCPG191', line: 22, column: 18, message: /^"format: int32" without a type: read as "type: integer"/, path: 'components.schemas.Thing.properties.count.format' },
    { code: 'MCPG191', line: 25, column: 11, message: /^"type: null" beside "oneOf" of other types allows no value: read as "oneOf" with a null alternative$/, path: 'components.schemas.Thing.properties.owner.type' },
    { code: 'MCPG191', line: 26, column: 32, message: /escapes of characters that need none were removed \(same meaning\)$/, path: 'components.schemas.Thing.properties.stamp.pattern' },
    { code: 'MCPG191', line: 37, column: 11, message: /is not a JSON Schema type: dropped$/, path: 'components.schemas.Thing.properties.itemType.type' },
    { code: 'MCPG191', line: 27, column: 31, message: /^"default" 0 is not of the schema's type: read as "0"$/, path: 'components.schemas.Thing.properties.mode.default' },
    { code: 'MCPG191', line: 28, column: 33, message: /^"default" "1" is not of the schema's type: read as 1$/, path: 'components.schemas.Thing.properties.pages.default' },
    { code: 'MCPG191', line: 29, column: 55, message: /^"default" 1 is invalid against its own schema \(value must be array\): dropped$/, path: 'components.schemas.Thing.properties.tags.default' },
    { code: 'MCPG191', line: 30, column: 33, message: /^"enum" lists null, which the "type" does not allow: null added to the type$/, path: 'components.schemas.Thing.properties.status.enum' },
    { code: 'MCPG191', line: 31, column: 45, message: /break the schema's own maxLength: that bound was dropped$/, path: 'components.schemas.Thing.properties.code.enum' },
    { code: 'MCPG191', line: 32, column: 56, message: /^"enum" of item values on an array: moved to "items"$/, path: 'components.schemas.Thing.properties.kinds.enum' },
  ],
};

describe('import openapi diagnostics', () => {
  for (const [fixture, wants] of Object.entries(CASES)) {
    it(`${fixture} → ${wants.map((w) => `${w.code}@${w.line}:${w.column}`).join(', ')}`, async () => {
      const file = `test/fixtures/openapi/${fixture}`;
      const result = await importOpenApi(file, ROOT);
      expect(result.diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column, path: d.path, file: d.file }))).toEqual(wants.map((w) => ({ code: w.code, line: w.line, column: w.column, path: w.path, file })));
      result.diagnostics.forEach((d, i) => expect(d.message).toMatch(wants[i]!.message));
    });
  }

  it('the repaired description checks without an error, its tool served', async () => {
    const result = await importOpenApi('test/fixtures/openapi/MCPG191-schema-repairs.yaml', ROOT);
    const dir = mkdtempSync(join(tmpdir(), 'mcpg191-'));
    writeFileSync(join(dir, 'spec.yaml'), stringify(result.spec));
    const checked = check([join(dir, 'spec.yaml')], dir);
    expect(checked.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect((result.spec.tools as { name: string }[]).map((t) => t.name)).toEqual(['createThing']);
  });

  it('an operation skipped is only that one: the others become tools', async () => {
    const result = await importOpenApi(join(ROOT, 'test/fixtures/openapi/MCPG131-media-range.yaml'), ROOT);
    expect((result.spec.tools as { name: string }[]).map((t) => t.name)).toEqual(['listFiles']);
  });

  it('an OAuth 2 client credentials scheme is run by the proxy: its token URL is in upstream.security, no warning', async () => {
    const result = await importOpenApi('test/fixtures/openapi/MCPG132-security.yaml', ROOT);
    expect(result.upstream.security?.service).toEqual({ type: 'oauth2', tokenUrl: 'https://auth.example.com/token' });
  });
});
