// `mcpgen generate` checks that what the generated code loads at run time resolves from the output
// directory, and otherwise prints the exact npm install line (a warning, not an error, no stack trace).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, cli, tempDir } from '../helpers.js';

type Pkg = { version: string; peerDependencies: Record<string, string> };
const runtime = JSON.parse(readFileSync(join(ROOT, 'packages/runtime/package.json'), 'utf8')) as Pkg;
const runtimeClient = JSON.parse(readFileSync(join(ROOT, 'packages/runtime-client/package.json'), 'utf8')) as Pkg;
const SPEC = 'mcpgen: 1\nserver: { name: w, version: "1" }\ntools:\n  - name: ping\n';

function project(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'w.yaml'), SPEC);
  return dir;
}

describe('generate: runtime dependencies of the generated code', () => {
  it('prints the exact npm install line when nothing resolves from the output directory', async () => {
    const dir = project();
    const r = await cli(['generate', 'w.yaml', '--out', 'out'], dir);
    expect(r.code).toBe(0);
    const client = runtimeClient.peerDependencies['@modelcontextprotocol/client'];
    const server = runtime.peerDependencies['@modelcontextprotocol/server'];
    expect(r.stderr).toContain(
      'mcpgen: warning: the code generated in out will not run: @mcpgen/runtime is not installed; @modelcontextprotocol/server is not installed; @mcpgen/runtime-client is not installed; @modelcontextprotocol/client is not installed',
    );
    // The server half as dependencies, the client half as dev dependencies (a server deploy leaves it out).
    expect(r.stderr).toContain(`\n  npm install @mcpgen/runtime@${runtime.version} '@modelcontextprotocol/server@${server}'\n`);
    expect(r.stderr).toContain(`\n  npm install --save-dev @mcpgen/runtime-client@${runtimeClient.version} '@modelcontextprotocol/client@${client}'   # client.ts, openai.ts`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // The generated package.json names the same packages and versions.
    const pkg = JSON.parse(readFileSync(join(dir, 'out/w/package.json'), 'utf8')) as { dependencies: unknown; devDependencies: unknown };
    expect(pkg.dependencies).toEqual({ '@mcpgen/runtime': runtime.version, '@modelcontextprotocol/server': server });
    expect(pkg.devDependencies).toEqual({ '@mcpgen/runtime-client': runtimeClient.version, '@modelcontextprotocol/client': client });
    rmSync(dir, { recursive: true, force: true });
  });

  it('names only what is missing, and a runtime of another version', async () => {
    const dir = project();
    const install = (name: string, version: string) => {
      mkdirSync(join(dir, 'node_modules', name), { recursive: true });
      writeFileSync(join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }));
    };
    install('@mcpgen/runtime', '0.0.1');
    install('@modelcontextprotocol/client', '2.4.0');
    install('@modelcontextprotocol/server', '2.4.0');
    install('@mcpgen/runtime-client', runtimeClient.version);
    const r = await cli(['generate', 'w.yaml', '--out', 'out'], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`@mcpgen/runtime is 0.0.1, this mcpgen generates for ${runtime.version}`);
    expect(r.stderr).toContain(`\n  npm install @mcpgen/runtime@${runtime.version}\n`);
    expect(r.stderr).not.toContain('--save-dev');
    install('@mcpgen/runtime', runtime.version);
    expect((await cli(['generate', 'w.yaml', '--out', 'out'], dir)).stderr).not.toContain('mcpgen: warning');
    rmSync(dir, { recursive: true, force: true });
  });

  it('is quiet in this repository, where the workspaces link @mcpgen/runtime and @mcpgen/runtime-client', async () => {
    const r = await cli(['generate', '--check']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('npm install');
  });
});
