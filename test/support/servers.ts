import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './root.js';

export { ROOT };
export const COMPILED = join(ROOT, '.tmp/compiled');

export function compiledMain(pkg: string): string {
  const main = join(COMPILED, pkg, 'main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: the global setup compiles generated/ (see ${join(ROOT, '.tmp/compile-result.json')})`);
  return main;
}

/** Import a compiled generated module, e.g. `importCompiled('weather', 'client.js')`. */
export async function importCompiled<T>(pkg: string, file: string): Promise<T> {
  return (await import(join(COMPILED, pkg, file))) as T;
}

export interface HttpProcess {
  readonly url: string;
  readonly child: ChildProcess;
  readonly stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Start a generated server's main.js over Streamable HTTP on 127.0.0.1 with an ephemeral port. */
export function startHttp(pkg: string, args: readonly string[] = []): Promise<HttpProcess> {
  return startScript(compiledMain(pkg), args);
}

export interface ScriptOptions {
  readonly env?: Readonly<Record<string, string>>;
  /** Flags for node itself, before the script (e.g. `--expose-gc`). */
  readonly nodeFlags?: readonly string[];
  /** The port to listen on (default: an ephemeral one). */
  readonly port?: number;
}

/** Start a script that ends in runMain (a main.js, or a test server in test/support) over HTTP on an ephemeral port. */
export function startScript(script: string, args: readonly string[] = [], options: ScriptOptions = {}): Promise<HttpProcess> {
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), script, '--http', '--port', String(options.port ?? 0), ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...options.env } });
  let stderr = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`server ${script} did not start: ${stderr}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = /listening on (\S+)/.exec(stderr);
      if (m !== null) {
        clearTimeout(timer);
        resolvePromise({
          url: m[1]!,
          child,
          stderr: () => stderr,
          stop: (signal = 'SIGTERM') =>
            new Promise((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode); // already gone (a signal leaves exitCode null)
              child.once('exit', (code) => done(code));
              child.kill(signal);
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`server ${script} exited with ${code}: ${stderr}`)));
  });
}

export function compileResult(): { files: number; diagnostics: string[] } {
  return JSON.parse(readFileSync(join(ROOT, '.tmp/compile-result.json'), 'utf8'));
}

/** Run a generated main.js with `args` until it exits (20 s at most): its exit code, stdout and stderr. */
export function runToExit(pkg: string, args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [compiledMain(pkg), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`main.js ${args.join(' ')} did not exit: ${stderr}`));
    }, 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
