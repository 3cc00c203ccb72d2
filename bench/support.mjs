// Shared by the bench scripts that run generated servers as processes (scale-out.mjs, tasks.mjs).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(import.meta.dirname, '..');
export const REDIS = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p));

export const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

export const freePort = () => new Promise((r) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address();
    s.close(() => r(port));
  });
});

/** Compiles generated/<name> into <work>/<name> (no type check: the test suite does that); returns that folder. */
export function compileGenerated(name, work) {
  const src = join(ROOT, 'generated', name);
  const out = join(work, name);
  mkdirSync(out, { recursive: true });
  ts.createProgram(readdirSync(src).filter((f) => f.endsWith('.ts')).map((f) => join(src, f)), {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, outDir: out, rootDir: src, noCheck: true,
  }).emit();
  return out;
}

/** Starts `node <main> …args`; resolves with its URL once stderr says it listens and `ready(stderr)` holds. */
export function startProcess(main, args, env, ready, children) {
  const child = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  children.push(child);
  return new Promise((resolvePromise, reject) => {
    let err = '';
    child.stderr.on('data', (c) => {
      err += c;
      const m = /listening on (\S+)/.exec(err);
      if (m && ready(err)) resolvePromise(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`${main} exited ${code}: ${err}`)));
  });
}
