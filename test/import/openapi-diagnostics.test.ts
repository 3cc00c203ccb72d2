// What `import openapi` reports, at file:line:col of the OpenAPI description: one fixture per code.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../../src/import/openapi/index.js';
import { ROOT } from '../helpers.js';

const CASES: Record<string, { code: string; line: number; column: number; message: RegExp; path: string }[]> = {
  'MCPG130-not-openapi.yaml': [{ code: 'MCPG130', line: 2, column: 1, message: /^not a readable OpenAPI description: Unsupported OpenAPI version: undefined/, path: '$' }],
  'MCPG131-media-range.yaml': [{ code: 'MCPG131', line: 9, column: 11, message: /^POST \/files skipped: no request body type the proxy can send among image\/\*$/, path: 'paths["/files"].post.requestBody.content' }],
  'MCPG132-security.yaml': [
    { code: 'MCPG132', line: 18, column: 10, message: /^security scheme "tls" \(mutualTLS\) is not filled by the proxy yet/, path: 'components.securitySchemes.tls' },
    { code: 'MCPG132', line: 16, column: 7, message: /^security scheme "user" \(oauth2\) has no client credentials flow: the proxy sends the access token in SECURED_USER as a bearer token$/, path: 'components.securitySchemes.user' },
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

  it('an operation skipped is only that one: the others become tools', async () => {
    const result = await importOpenApi(join(ROOT, 'test/fixtures/openapi/MCPG131-media-range.yaml'), ROOT);
    expect((result.spec.tools as { name: string }[]).map((t) => t.name)).toEqual(['listFiles']);
  });

  it('an OAuth 2 client credentials scheme is run by the proxy: its token URL is in upstream.security, no warning', async () => {
    const result = await importOpenApi('test/fixtures/openapi/MCPG132-security.yaml', ROOT);
    expect(result.upstream.security?.service).toEqual({ type: 'oauth2', tokenUrl: 'https://auth.example.com/token' });
  });
});
