// Issue 46 defect 6: the upstream API's settings are settings of the generated entry point. A spec with
// `http:` bindings and no `upstream.baseUrl`, an API key and an OAuth 2 scheme: generate → strict tsc → run
// the compiled main.js. <SERVER>_BASE_URL and the credentials are checked at start with the variable's
// name, accepted in a --config file, listed by --help, shown by --print-config with secrets masked.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateAndCompile, type CompiledPackage } from '../support/generated-package.js';
import { ROOT } from '../support/root.js';

const SPEC = `mcpgen: 1
server: { name: crm, version: 1.0.0 }
upstream:
  security:
    api_key: { type: apiKey, in: header, name: X-Api-Key }
    service: { type: oauth2, tokenUrl: https://auth.example.com/token, env: CRM_OAUTH }
tools:
  - name: get_contact
    input: { type: object, properties: { id: { type: string } }, required: [id] }
    http: { method: GET, path: "/contacts/{id}", params: { id: path } }
`;

const dir = join(ROOT, '.tmp/upstream-settings');
let built: CompiledPackage;
beforeAll(async () => {
  built = await generateAndCompile(dir, 'crm', SPEC, {});
}, 180_000);

/** The compiled main.js with `args` and exactly `env` (plus PATH), to its exit. */
function run(args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(built.js, 'main.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('the upstream API settings of a generated main.js', () => {
  it('compiles', () => {
    // The spec's own warning says what the entry point now enforces at start.
    expect(built.diagnostics).toEqual([expect.objectContaining({ code: 'MCPG118', severity: 'warning' })]);
    expect(built.compileErrors).toEqual([]);
  });

  it('refuses at start, naming the variable: no base URL, a base URL that is not one, half an OAuth client', async () => {
    expect(await run(['--http', '--port', '0'])).toMatchObject({ code: 1, stderr: expect.stringMatching(/^main\.js: CRM_BASE_URL is not set: /) });
    expect(await run(['--http', '--port', '0'], { CRM_BASE_URL: 'not a url' })).toMatchObject({ code: 1, stderr: 'main.js: CRM_BASE_URL must be an http:// or https:// URL, got "not a url"\n' });
    expect(await run([], { CRM_BASE_URL: 'https://crm.example', CRM_OAUTH_CLIENT_ID: 'app' })).toMatchObject({ code: 1, stderr: expect.stringContaining('CRM_OAUTH_CLIENT_SECRET is not set') });
    expect(await run([], { CRM_BASE_URL: 'https://crm.example', CRM_OAUTH_TOKEN_URL: 'token' })).toMatchObject({ code: 1, stderr: expect.stringContaining('CRM_OAUTH_TOKEN_URL must be an http:// or https:// URL') });
  });

  it('--help lists them; a --config file may hold them; --print-config shows them with secrets masked', async () => {
    const help = await run(['--help']);
    for (const name of ['CRM_BASE_URL', 'CRM_API_KEY', 'CRM_OAUTH_CLIENT_ID', 'CRM_OAUTH_CLIENT_SECRET', 'CRM_OAUTH_TOKEN_URL']) expect(help.stdout).toContain(name);
    const file = join(dir, 'settings.json');
    writeFileSync(file, JSON.stringify({ CRM_BASE_URL: 'https://svc:pw-s3cret@crm.example/v2', CRM_API_KEY: 'key-s3cret', CRM_OAUTH_CLIENT_ID: 'app-1', CRM_OAUTH_CLIENT_SECRET: 'client-s3cret', PORT: 8080 }));
    const printed = await run(['--http', '--config', file, '--print-config']);
    expect(printed.code, printed.stderr).toBe(0);
    expect(JSON.parse(printed.stdout)).toMatchObject({
      port: 8080,
      upstream: { baseUrl: 'https://***:***@crm.example/v2', baseUrlFrom: 'CRM_BASE_URL', credentials: { CRM_API_KEY: 'set (***)', CRM_OAUTH_CLIENT_ID: 'app-1', CRM_OAUTH_CLIENT_SECRET: 'set (***)', CRM_OAUTH: 'not set' } },
    });
    expect(printed.stdout).not.toContain('s3cret');
    writeFileSync(file, JSON.stringify({ CRM_BASE_URL: 'https://crm.example', CRM_BASE_URI: 'x' }));
    expect(await run(['--config', file])).toMatchObject({ code: 1, stderr: expect.stringContaining('unknown setting "CRM_BASE_URI" (did you mean CRM_BASE_URL?)') });
  });
});
