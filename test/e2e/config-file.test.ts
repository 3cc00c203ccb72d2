// Issue 30 item 4: every setting of the generated entry point from the environment AND an optional config
// file (`--config file.json` / MCPGEN_CONFIG), checked at start (one line, exit 1), all listed by --help.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/root.js';
import { compiledMain } from '../support/servers.js';
import { SETTING_VARIABLES } from '../../packages/runtime/src/server/entry/config-file.js';

const DIR = join(ROOT, `.tmp/config-file-${process.pid}`);
mkdirSync(DIR, { recursive: true });
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(DIR, name);
  writeFileSync(path, text);
  return path;
}

function main(pkg: string, args: readonly string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(SETTING_VARIABLES as readonly string[]).includes(k) && k !== 'MCPGEN_CONFIG'));
  const out = spawnSync(process.execPath, [compiledMain(pkg), ...args], { env: { ...clean, ...env }, encoding: 'utf8', timeout: 15_000, killSignal: 'SIGKILL' });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe('main.js --config / MCPGEN_CONFIG', () => {
  it('takes settings from the file, under the environment and the flags', () => {
    const settings = file('ok.json', JSON.stringify({ PORT: 8123, MCPGEN_RATE_LIMIT_TOOLS: 'add=5/1s', MCPGEN_TELEMETRY: 'off', MCPGEN_ALLOWED_HOSTS: 'mcp.example.com', REDIS_URL: 'redis://u:pw-secret@redis.internal:6379' }));
    const printed = main('weather', ['--http', '--config', settings, '--print-config']);
    expect(printed.status).toBe(0);
    const config = JSON.parse(printed.stdout) as Record<string, unknown>;
    expect(config).toMatchObject({ port: 8123, allowedHosts: ['mcp.example.com'], rateLimits: { tools: { add: '5/1s' } }, redis: { topology: 'standalone', where: 'redis://***:***@redis.internal:6379' } });
    expect(printed.stdout).not.toContain('pw-secret');
    // The variable wins over the file, the flag over both; MCPGEN_CONFIG names the file too.
    expect(JSON.parse(main('weather', ['--http', '--print-config'], { MCPGEN_CONFIG: settings, PORT: '9000' }).stdout)).toMatchObject({ port: 9000 });
    expect(JSON.parse(main('weather', ['--http', '--port', '7000', `--config=${settings}`, '--print-config'], { PORT: '9000' }).stdout)).toMatchObject({ port: 7000 });
  });

  it.each([
    ['missing.json', undefined, /^main\.js: cannot read the config file .*missing\.json: ENOENT$/],
    ['broken.json', '{"PORT": 80', /^main\.js: config file .*broken\.json is not JSON: /],
    ['list.json', '["PORT"]', /^main\.js: config file .*list\.json must hold a JSON object of settings/],
    ['typo.json', '{"MCPGEN_RATE_LIMT": "5/1m"}', /^main\.js: config file .*typo\.json: unknown setting "MCPGEN_RATE_LIMT" \(did you mean MCPGEN_RATE_LIMIT\?\)$/],
    ['nested.json', '{"PORT": {"value": 80}}', /^main\.js: config file .*nested\.json: PORT must be a string, number or boolean$/],
    ['delay.json', '{"MCPGEN_SHUTDOWN_DELAY_SECONDS": 700}', /^main\.js: MCPGEN_SHUTDOWN_DELAY_SECONDS must be a whole number of seconds \(0-600\), got "700"$/],
    ['hosts.json', '{"MCPGEN_ALLOWED_HOSTS": "https://svc.example"}', /^main\.js: MCPGEN_ALLOWED_HOSTS: "https:\/\/svc\.example" is not a hostname/],
    ['rate.json', '{"MCPGEN_RATE_LIMIT": "lots"}', /^mcpgen: MCPGEN_RATE_LIMIT: "lots" is not a rate/],
    ['ttl.json', '{"MCPGEN_REQUEST_STATE_TTL_SECONDS": 0}', /^mcpgen: MCPGEN_REQUEST_STATE_TTL_SECONDS must be a positive whole number of seconds, not "0"$/],
    ['redis.json', '{"REDIS_URL": "http://user:secret@127.0.0.1:6379"}', /^mcpgen: REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    ['log-level.json', '{"MCPGEN_LOG_LEVEL": "loud"}', /^mcpgen: MCPGEN_LOG_LEVEL must be debug, info, warn, error, got "loud"$/],
    ['log-format.json', '{"MCPGEN_LOG_FORMAT": "xml"}', /^mcpgen: MCPGEN_LOG_FORMAT must be text or json, got "xml"$/],
    ['telemetry.json', '{"MCPGEN_TELEMETRY": "yes"}', /^mcpgen: MCPGEN_TELEMETRY must be otel or off, got "yes"$/],
  ])('a bad %s is one line on stderr and exit 1', (name, text, line) => {
    const path = text === undefined ? join(DIR, name) : file(name, text);
    const { status, stderr } = main('weather', ['--http', '--port', '0', '--config', path]);
    expect(status).toBe(1);
    const lines = stderr.trimEnd().split('\n');
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toMatch(line);
    expect(stderr).not.toContain('secret');
  });

  it('--help names every setting a config file may hold, and --config itself', () => {
    const help = main('secure-notes', ['--help']);
    expect(help.status).toBe(0);
    for (const name of [...SETTING_VARIABLES, '--config', 'MCPGEN_CONFIG']) expect(help.stdout).toContain(name);
  });
});
