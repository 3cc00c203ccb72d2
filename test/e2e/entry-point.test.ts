// The generated main.ts as a deployment runs it: flags and their environment variables, --help, usage
// errors (exit 2, with "did you mean"), allowed hosts and origins checked over real HTTP with a Host header
// that is not localhost, and the warning for a non-loopback bind that still accepts only localhost names.
import { createServer, type Server } from 'node:net';
import { parseEntryArgs } from '@mcpgen/runtime/server';
import { describe, expect, it } from 'vitest';
import { rawCall } from '../support/raw-http.js';
import { compiledMain, runToExit as runMainToExit, startScript } from '../support/servers.js';

/** Run the weather main.js to its exit (it must exit on its own: help, usage errors, listen failures). */
const runToExit = (args: readonly string[], env: Record<string, string> = {}) => runMainToExit('weather', args, env);

/** tools/list with the given extra headers (Host, Origin); the status and body. */
async function listTools(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const call = rawCall(url, 'tools/list', {}, { headers });
  const res = await call.response;
  await call.closed;
  return { status: res.statusCode ?? 0, body: call.text() };
}

describe('parseEntryArgs', () => {
  it('reads flags, =values and the environment; flags win', () => {
    expect(parseEntryArgs([])).toEqual({ kind: 'run', args: { transport: 'stdio' } });
    expect(parseEntryArgs(['--http'])).toEqual({ kind: 'run', args: { transport: 'http', host: '127.0.0.1', port: 3000, allowedHosts: undefined, allowedOrigins: undefined } });
    const env = { HOST: '0.0.0.0', PORT: '8080', MCPGEN_ALLOWED_HOSTS: 'a.example, B.example', MCPGEN_ALLOWED_ORIGINS: '*' };
    expect(parseEntryArgs(['--http'], env)).toEqual({ kind: 'run', args: { transport: 'http', host: '0.0.0.0', port: 8080, allowedHosts: ['a.example', 'b.example'], allowedOrigins: '*' } });
    expect(parseEntryArgs(['--http', '--port=0', '--host', '::1', '--allowed-hosts', '[::1],svc'], env)).toEqual({
      kind: 'run',
      args: { transport: 'http', host: '::1', port: 0, allowedHosts: ['[::1]', 'svc'], allowedOrigins: '*' },
    });
    expect(parseEntryArgs(['--http', '--host', '[::1]'])).toMatchObject({ args: { host: '::1' } });
    // The environment never turns stdio into HTTP, and an empty variable counts as unset.
    expect(parseEntryArgs([], env)).toEqual({ kind: 'run', args: { transport: 'stdio' } });
    expect(parseEntryArgs(['--http'], { PORT: '' })).toMatchObject({ args: { port: 3000 } });
    // CORS origins (issue 25 item 8): full origins, the flag over MCPGEN_CORS_ORIGINS.
    expect(parseEntryArgs(['--http'], { MCPGEN_CORS_ORIGINS: 'https://App.example, http://localhost:5173/' })).toMatchObject({ args: { corsOrigins: ['https://app.example', 'http://localhost:5173'] } });
    expect(parseEntryArgs(['--http', '--cors-origins', 'https://b.example'], { MCPGEN_CORS_ORIGINS: 'https://a.example' })).toMatchObject({ args: { corsOrigins: ['https://b.example'] } });
  });

  it('reads --toolsets / MCPGEN_TOOLSETS and --read-only / MCPGEN_READ_ONLY on both transports (docs/toolsets.md)', () => {
    expect(parseEntryArgs(['--toolsets', 'issues, repos', '--read-only'])).toStrictEqual({ kind: 'run', args: { transport: 'stdio', toolsets: ['issues', 'repos'], readOnly: true } });
    expect(parseEntryArgs(['--http', '--toolsets=all'], { MCPGEN_TOOLSETS: 'issues' })).toMatchObject({ args: { transport: 'http', toolsets: ['all'] } });
    expect(parseEntryArgs([], { MCPGEN_TOOLSETS: 'repos', MCPGEN_READ_ONLY: 'true' })).toStrictEqual({ kind: 'run', args: { transport: 'stdio', toolsets: ['repos'], readOnly: true } });
    // Not given: no keys, so the server options' own defaults apply.
    expect(parseEntryArgs([], { MCPGEN_READ_ONLY: '0' })).toStrictEqual({ kind: 'run', args: { transport: 'stdio' } });
    expect(parseEntryArgs(['--toolsets', ' , '])).toEqual({ kind: 'config-error', message: '--toolsets is empty' });
    expect(parseEntryArgs(['--read-only=yes'])).toEqual({ kind: 'usage-error', message: '--read-only takes no value' });
  });

  it('reads --worker / --front and MCPGEN_TASK_ROLE (docs/tasks.md, Workers); a worker takes --port for its probes', () => {
    expect(parseEntryArgs(['--worker', '--port', '0'])).toMatchObject({ kind: 'run', args: { transport: 'http', port: 0, taskRole: 'worker' } });
    expect(parseEntryArgs([], { MCPGEN_TASK_ROLE: 'worker' })).toMatchObject({ args: { transport: 'http', taskRole: 'worker' } });
    expect(parseEntryArgs(['--http', '--front'], { MCPGEN_TASK_ROLE: 'worker' })).toMatchObject({ args: { transport: 'http', taskRole: 'front' } });
    expect(parseEntryArgs(['--http'], { MCPGEN_TASK_ROLE: 'all' })).not.toHaveProperty('args.taskRole');
    expect(parseEntryArgs(['--front'])).toEqual({ kind: 'usage-error', message: '--front (MCPGEN_TASK_ROLE=front) applies to --http only' });
    expect(parseEntryArgs(['--http', '--front', '--worker'])).toEqual({ kind: 'usage-error', message: '--worker and --front exclude each other' });
    expect(parseEntryArgs(['--http'], { MCPGEN_TASK_ROLE: 'workers' })).toEqual({ kind: 'usage-error', message: 'MCPGEN_TASK_ROLE must be all, front or worker, got "workers"' });
  });

  it('refuses what would be ignored or never match, with the reason', () => {
    const error = (argv: string[], env = {}) => {
      const c = parseEntryArgs(argv, env);
      // Usage errors (exit 2) and wrong values (exit 1, test/e2e/operations.test.ts) both carry their message.
      return c.kind === 'usage-error' || c.kind === 'config-error' ? c.message : `not an error: ${JSON.stringify(c)}`;
    };
    expect(error(['--htp'])).toBe('unknown option --htp (did you mean --http?)');
    expect(error(['--allowed-host', 'x'])).toBe('unknown option --allowed-host (did you mean --allowed-hosts?)');
    expect(error(['--frobnicate'])).toBe('unknown option --frobnicate');
    expect(error(['serve'])).toBe('unexpected argument "serve"');
    expect(error(['--port', '3000'])).toBe('--port applies to --http only');
    expect(error(['--http', '--stdio'])).toBe('--http and --stdio exclude each other');
    expect(error(['--http', '--port'])).toBe('--port needs a value');
    expect(error(['--http', '--port', '--host'])).toBe('--port needs a value');
    expect(error(['--http', '--port', '70000'])).toBe('--port must be a port number (0-65535), got "70000"');
    expect(error(['--http'], { PORT: 'abc' })).toBe('PORT must be a port number (0-65535), got "abc"');
    expect(error(['--http', '--allowed-hosts', 'https://svc.example'])).toMatch(/"https:\/\/svc.example" is not a hostname/);
    expect(error(['--http', '--allowed-hosts', 'svc.example:443'])).toMatch(/is not a hostname/);
    expect(error(['--http'], { MCPGEN_ALLOWED_ORIGINS: 'a,*' })).toBe('MCPGEN_ALLOWED_ORIGINS: * stands alone (it turns the check off)');
    expect(error(['--http', '--cors-origins', 'app.example'])).toMatch(/"app.example" is not an origin/);
    expect(error(['--http', '--cors-origins', 'https://app.example/mcp'])).toMatch(/is not an origin/);
    expect(error(['--cors-origins', 'https://app.example'])).toBe('--cors-origins applies to --http only');
    expect(parseEntryArgs(['--http', '-h'])).toEqual({ kind: 'help' });
  });
});

describe('a generated main.js', () => {
  it('prints its usage for --help (exit 0) and refuses an unknown flag with a suggestion (exit 2)', async () => {
    const help = await runToExit(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: node main\.js \[--stdio \| --http\] \[options\]/);
    for (const name of ['--http', '--stdio', '--host', '--port', '--allowed-hosts', '--allowed-origins', 'HOST', 'PORT', 'MCPGEN_ALLOWED_HOSTS', 'MCPGEN_ALLOWED_ORIGINS', '--help']) {
      expect(help.stdout).toContain(name);
    }
    const typo = await runToExit(['--htp']);
    expect(typo.code).toBe(2);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toMatch(/^main\.js: unknown option --htp \(did you mean --http\?\)\n\nUsage: node main\.js/);
    const stray = await runToExit(['--port', '3000']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(/^main\.js: --port applies to --http only/);
  });

  it('serves a Host named by --allowed-hosts and an Origin named by MCPGEN_ALLOWED_ORIGINS over real HTTP, and refuses the rest with 403', async () => {
    const server = await startScript(compiledMain('weather'), ['--host', '127.0.0.1', '--allowed-hosts', 'mcp.example.test,Other.Example.Test'], { env: { MCPGEN_ALLOWED_ORIGINS: 'app.example.test' } });
    try {
      const port = new URL(server.url).port;
      const served = await listTools(server.url, { host: `mcp.example.test:${port}` });
      expect(served.status).toBe(200);
      expect(served.body).toContain('"get_forecast"');
      expect((await listTools(server.url, { host: 'other.example.test' })).status).toBe(200);
      // The localhost names stay allowed beside the listed ones (health checks on the machine itself).
      expect((await listTools(server.url, { host: `localhost:${port}` })).status).toBe(200);
      const refused = await listTools(server.url, { host: `evil.example.test:${port}` });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatch(/Invalid Host/i);
      expect((await listTools(server.url, { host: `mcp.example.test:${port}`, origin: 'https://app.example.test' })).status).toBe(200);
      expect((await listTools(server.url, { host: `mcp.example.test:${port}`, origin: 'https://evil.example.test' })).status).toBe(403);
      // Bound to loopback: no exposure warning.
      expect(server.stderr()).not.toContain('warning');
    } finally {
      await server.stop();
    }
  });

  it('without --allowed-hosts, a non-localhost Host gets 403 (the default stays localhost-only)', async () => {
    const server = await startScript(compiledMain('weather'));
    try {
      const port = new URL(server.url).port;
      expect((await listTools(server.url, { host: `mcp.example.test:${port}` })).status).toBe(403);
      expect((await listTools(server.url, { host: `127.0.0.1:${port}` })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('warns on stderr when binding a non-loopback address with only localhost names allowed; a failed listen is one line, exit 1', async () => {
    // The port is held on 127.0.0.1, so binding 0.0.0.0 fails at once (EADDRINUSE): the warning is printed
    // before listening, and nothing is ever served beyond loopback.
    const holder: Server = await new Promise((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const port = String((holder.address() as { port: number }).port);
      const exposed = await runToExit(['--http', '--host', '0.0.0.0', '--port', port]);
      expect(exposed.stderr).toMatch(/^warning: listening on 0\.0\.0\.0, but only localhost names are accepted in the Host header: .* --allowed-hosts \(MCPGEN_ALLOWED_HOSTS\)\.$/m);
      expect(exposed.stderr).toMatch(new RegExp(`^cannot listen on 0\\.0\\.0\\.0:${port}: .*EADDRINUSE`, 'm'));
      expect(exposed.stderr).not.toMatch(/\n\s+at /);
      expect(exposed.code).toBe(1);
      // With allowed hosts named (here from the environment), there is nothing to warn about.
      const named = await runToExit(['--http', '--port', port], { HOST: '0.0.0.0', MCPGEN_ALLOWED_HOSTS: 'mcp.example.test' });
      expect(named.stderr).not.toContain('warning');
      expect(named.code).toBe(1);
    } finally {
      await new Promise((r) => holder.close(r));
    }
  });
});
