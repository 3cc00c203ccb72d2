// `generate --watch` keeps hearing a spec that is replaced by rename (editors, `sed -i`, `git checkout`)
// or deleted and created again, or written in two bursts: the real CLI process, real files, real inotify.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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

interface Watch {
  output: () => string;
  /** Resolves the moment the process prints something after which `done` holds (checked on each chunk it prints). */
  printed: (done: () => boolean, what: string, ms: number) => Promise<void>;
}

function startWatch(dir: string, env: Record<string, string> = {}): Watch {
  let output = '';
  let check = () => {};
  child = spawn(process.execPath, [join(ROOT, 'bin/mcpgen.js'), 'generate', '--watch'], { cwd: dir, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const heard = (c: Buffer) => {
    output += c.toString();
    check();
  };
  child.stderr!.on('data', heard);
  child.stdout!.on('data', heard);
  const printed = (done: () => boolean, what: string, ms: number) =>
    new Promise<void>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`no ${what} within ${ms} ms:\n${output}`)), ms);
      check = () => {
        if (!done()) return;
        clearTimeout(timer);
        check = () => {};
        ok();
      };
    });
  return { output: () => output, printed };
}

/** A copy of the weather example in a project, with its spec rewritten by version and read back from the output. */
function weatherProject() {
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
  /** An atomic save, as editors make it: a temp file next to the spec, renamed over it. */
  const renameOver = (v: string) => {
    writeFileSync(`${spec}.tmp`, withVersion(v));
    renameSync(`${spec}.tmp`, spec);
  };
  return { dir, spec, withVersion, generatedVersion, renameOver };
}

describe('generate --watch', () => {
  it('regenerates after a rename-replace (twice) and after a delete-recreate', async () => {
    const { dir, spec, withVersion, generatedVersion, renameOver } = weatherProject();
    const watcher = startWatch(dir);
    await waitFor(() => watcher.output().includes('for spec changes'), 20_000);

    // An atomic save: write a temp file next to it, rename it over the spec. Twice: the first one is
    // what used to leave the watch on the old inode.
    for (const v of ['7.0.1', '7.0.2']) {
      renameOver(v);
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

  // chokidar drops a file's change event that comes within 50 ms of its last one (a throttle that sends
  // no trailing event). A run answered from the run record takes a few ms, so a save made the moment
  // such a run ended (after its after-run byte check) was never regenerated.
  it('regenerates a save made the moment the last run ended, and the last of quick saves made during a run', async () => {
    const { dir, spec, withVersion, generatedVersion, renameOver } = weatherProject();
    // A run record, as in a project with node_modules: a save of unchanged bytes ends in a few ms.
    const watcher = startWatch(dir, { MCPGEN_CACHE_DIR: join(dir, 'cache') });
    await waitFor(() => watcher.output().includes('for spec changes'), 20_000);
    const runs = () => watcher.output().match(/^wrote \d+ file/gm)?.length ?? 0;
    for (let i = 0; i < 10; i++) {
      let seen = runs();
      // A save of the same bytes (an editor's save without edits); the next save follows its run at once.
      const same = readFileSync(spec);
      writeFileSync(`${spec}.tmp`, same);
      renameSync(`${spec}.tmp`, spec);
      await watcher.printed(() => runs() > seen, `a run after saving ${i} unchanged`, 10_000);
      seen = runs();
      const done = watcher.printed(() => runs() > seen && generatedVersion() === `7.1.${i}`, `regeneration for 7.1.${i}`, 10_000);
      renameOver(`7.1.${i}`);
      // Every third time, two more saves while the run that one started may be going on: the last counts.
      if (i % 3 === 2) {
        await new Promise((r) => setTimeout(r, 5 * (i % 4)));
        writeFileSync(spec, withVersion(`7.2.${i}`));
        renameOver(`7.1.${i}`);
      }
      await done;
    }
    expect(generatedVersion()).toBe('7.1.9');
  }, 120_000);

  // chokidar watches a folder by the inode it had: one replaced as a whole (`git checkout` of another
  // branch, a sync tool) was watched no more, so later saves and new specs in it went unheard.
  it('keeps hearing a spec folder replaced as a whole', async () => {
    const { dir, spec, withVersion, generatedVersion } = weatherProject();
    const watcher = startWatch(dir);
    await waitFor(() => watcher.output().includes('for spec changes'), 20_000);
    const specs = join(dir, 'specs');
    mkdirSync(`${specs}.new`);
    writeFileSync(join(`${specs}.new`, 'weather.yaml'), withVersion('7.3.1'));
    rmSync(specs, { recursive: true });
    renameSync(`${specs}.new`, specs);
    await waitFor(() => generatedVersion() === '7.3.1', 20_000).catch(() => expect.fail(`no regeneration after the folder swap:\n${watcher.output()}`));
    rmSync(spec);
    await new Promise((r) => setTimeout(r, 300));
    writeFileSync(spec, withVersion('7.3.2'));
    await waitFor(() => generatedVersion() === '7.3.2', 20_000).catch(() => expect.fail(`no regeneration after a delete-recreate in the new folder:\n${watcher.output()}`));
    // a new spec the config's glob matches
    writeFileSync(join(specs, 'tides.yaml'), withVersion('1.0.0').replace(/^ {2}name: weather$/m, '  name: tides'));
    await waitFor(() => existsSync(join(dir, 'generated/tides/package.json')), 20_000).catch(() => expect.fail(`no regeneration for a new spec in the new folder:\n${watcher.output()}`));
  }, 120_000);
});
