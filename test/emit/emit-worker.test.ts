// Emission in a worker thread (src/emit/emitter.ts), as the CLI runs it: the same bytes as in-process,
// and a worker that fails is one clear error with nothing written. The worker is the built one
// (dist/emit/worker.js, from `npm run build`); the pipeline around it runs from src/.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitInWorker, inProcessEmitter, startEmitWorker, WORKER_MIN_SPEC_BYTES, type Emitter } from '../../src/emit/emitter.js';
import { EnvironmentError } from '../../src/errors.js';
import { generate } from '../../src/pipeline.js';
import { ROOT, tempDir } from '../helpers.js';

const WORKER = new URL('../../dist/emit/worker.js', import.meta.url);
const SPECS = readdirSync(join(ROOT, 'specs')).filter((f) => f.endsWith('.yaml')).sort().map((f) => join(ROOT, 'specs', f));

/** Every file under `dir`, by relative path. */
function tree(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const rel = join(prefix, e.name);
    if (e.isDirectory()) Object.assign(out, tree(dir, rel));
    else out[rel] = readFileSync(join(dir, rel), 'utf8');
  }
  return out;
}

async function generateWith(emitter: Emitter): Promise<Record<string, string>> {
  const out = tempDir('mcpgen-emit-worker-');
  try {
    const result = await generate(SPECS, ROOT, { out, emitter });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  } finally {
    emitter.close();
  }
  return tree(out);
}

describe('emit worker', { timeout: 120_000 }, () => {
  it('writes byte-identical packages to in-process emission, for every example spec', async () => {
    const inWorker = await generateWith(startEmitWorker({ entry: WORKER }));
    const inProcess = await generateWith(inProcessEmitter());
    expect(Object.keys(inWorker).length).toBeGreaterThan(SPECS.length * 8);
    expect(inWorker).toEqual(inProcess);
  });

  it('reports a bug in an emitter as an error with the emitter stack, and stays usable (--watch reuses it)', async () => {
    const emitter = startEmitWorker({ entry: WORKER, reuse: true });
    try {
      const failed = await emitter.emit([{ model: { name: 'broken' } as never, options: {} }]).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(failed).toBeInstanceOf(Error);
      expect(failed).not.toBeInstanceOf(EnvironmentError);
      expect(failed!.stack).toMatch(/dist\/emit\//);
      const result = await generate([join(ROOT, 'specs/weather.yaml')], ROOT, { out: tempDir(), emitter });
      expect(result.plan!.write.size).toBeGreaterThan(0);
    } finally {
      emitter.close();
    }
  });

  it('a worker that cannot start fails the run with one line and writes nothing', async () => {
    const dir = tempDir('mcpgen-emit-worker-');
    const broken = join(dir, 'broken-worker.mjs');
    writeFileSync(broken, "throw new Error('cannot load ts-morph\\n    at somewhere (x.js:1:1)');\n");
    const out = join(dir, 'out');
    const emitter = startEmitWorker({ entry: new URL(`file://${broken}`) });
    const failed = await generate([join(ROOT, 'specs/weather.yaml')], ROOT, { out, emitter }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    emitter.close();
    expect(failed).toBeInstanceOf(EnvironmentError);
    expect(failed!.message).toBe("the code emitter's worker thread failed: cannot load ts-morph");
    expect(existsSync(out)).toBe(false);
  });

  it('the CLI says so in one line, exits 1 and leaves no output when its worker fails', () => {
    const dir = tempDir('mcpgen-emit-worker-');
    // Preloads run in worker threads too: this one makes only the emit worker fail.
    writeFileSync(join(dir, 'fail-in-worker.mjs'), "import { isMainThread } from 'node:worker_threads';\nif (!isMainThread) throw new Error('no emitters here');\n");
    const r = spawnSync(process.execPath, ['--import', join(dir, 'fail-in-worker.mjs'), join(ROOT, 'bin/mcpgen.js'), 'generate', join(ROOT, 'specs/weather.yaml'), '--out', join(dir, 'out')], {
      cwd: dir,
      encoding: 'utf8',
      // The CLI picks the worker only when a core is free (emitInWorker); this run must use it.
      env: { ...process.env, MCPGEN_CACHE_DIR: join(dir, 'cache'), MCPGEN_EMIT_WORKER: '1' },
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toBe("mcpgen: the code emitter's worker thread failed: no emitters here");
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('emits a small spec in-process; MCPGEN_EMIT_WORKER=1 or 0 decides instead', () => {
    const before = process.env.MCPGEN_EMIT_WORKER;
    try {
      delete process.env.MCPGEN_EMIT_WORKER;
      expect(emitInWorker(WORKER_MIN_SPEC_BYTES - 1)).toBe(false);
      process.env.MCPGEN_EMIT_WORKER = '1';
      expect(emitInWorker(0)).toBe(true);
      process.env.MCPGEN_EMIT_WORKER = '0';
      expect(emitInWorker(10 * WORKER_MIN_SPEC_BYTES)).toBe(false);
    } finally {
      if (before === undefined) delete process.env.MCPGEN_EMIT_WORKER;
      else process.env.MCPGEN_EMIT_WORKER = before;
    }
  });
});
