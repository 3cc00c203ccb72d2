// `generate --watch` keeps hearing a spec that is replaced by rename (editors, `sed -i`, `git checkout`)
// or deleted and created again, or written in two bursts: the real CLI process, real files, real inotify.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../support/root.js';
import { waitFor } from '../support/ports.js';
import { project } from '../write/support.js';

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGINT');
  child = undefined;
});

function startWatch(dir: string): { output: () => string } {
  let output = '';
  child = spawn(process.execPath, [join(ROOT, 'bin/mcpgen.js'), 'generate', '--watch'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  return { output: () => output };
}

describe('generate --watch', () => {
  it('regenerates after a rename-replace (twice) and after a delete-recreate', async () => {
    const dir = project(['weather.yaml']);
    const spec = join(dir, 'specs/weather.yaml');
    const original = readFileSync(spec, 'utf8');
    const withVersion = (v: string) => original.replace(/^ {2}version: .*$/m, `  version: ${v}`);
    const generatedVersion = () => {
      try {
        return (JSON.parse(readFileSync(join(dir, 'generated/weather/package.json'), 'utf8')) as { version: string }).version;
      } catch {
        return undefined;
      }
    };
    const watcher = startWatch(dir);
    await waitFor(() => watcher.output().includes('for spec changes'), 20_000);

    // An atomic save: write a temp file next to it, rename it over the spec. Twice: the first one is
    // what used to leave the watch on the old inode.
    for (const v of ['7.0.1', '7.0.2']) {
      writeFileSync(`${spec}.tmp`, withVersion(v));
      renameSync(`${spec}.tmp`, spec);
      await waitFor(() => generatedVersion() === v, 20_000).catch(() => expect.fail(`no regeneration for ${v}:\n${watcher.output()}`));
    }

    rmSync(spec);
    await new Promise((r) => setTimeout(r, 300));
    writeFileSync(spec, withVersion('7.0.3'));
    await waitFor(() => generatedVersion() === '7.0.3', 20_000).catch(() => expect.fail(`no regeneration after delete-recreate:\n${watcher.output()}`));

    // and a plain in-place write still works afterwards
    writeFileSync(spec, withVersion('7.0.4'));
    await waitFor(() => generatedVersion() === '7.0.4', 20_000).catch(() => expect.fail(`no regeneration after a plain write:\n${watcher.output()}`));

    // A save in two writes 30 ms apart (half a text, then all of it): the run that counts reads the whole.
    const last = withVersion('7.0.5');
    writeFileSync(spec, last.slice(0, last.length >> 1));
    await new Promise((r) => setTimeout(r, 30));
    writeFileSync(spec, last);
    await waitFor(() => generatedVersion() === '7.0.5', 20_000).catch(() => expect.fail(`no regeneration after a save in two writes:\n${watcher.output()}`));
  }, 120_000);
});
