// `mcpgen test <spec> (--url URL | -- command [args…])`: property-based contract tests of a running server
// against its spec. Its modules (fast-check, the official client) load only when this command runs.
import { resolve } from 'node:path';
import { hasErrors } from '../../diagnostics/diagnostic.js';
import { UsageError } from '../../errors.js';
import type { ServerTarget } from '../../import/mcp/connect.js';
import { check } from '../../pipeline.js';
import { formatReport, type Reporter } from '../../tester/report.js';
import { readReplayFile, replayFileText, runReplay } from '../../tester/replay.js';
import { runTests } from '../../tester/run.js';
import { DEFAULT_OPTIONS, type TestOptions } from '../../tester/types.js';
import { writeFilesAtomically } from '../../write/atomic.js';
import { stringFlag, type Parsed } from '../args.js';
import { printDiagnostics, type Io } from '../report.js';


const DEFAULT_SAVE = 'mcpgen-test-failures.json';

export async function runTest(args: Parsed, io: Io): Promise<number> {
  const [specArg, ...command] = args.positional;
  if (specArg === undefined) throw new UsageError('test needs a spec: `mcpgen test <spec> --url URL` or `mcpgen test <spec> -- command [args…]`');
  const target = targetOf(stringFlag(args, 'url'), command, io.cwd);
  const options = optionsOf(args);
  const specFile = resolve(io.cwd, specArg);
  const checked = check([specFile], io.cwd);
  if (hasErrors(checked.diagnostics) || checked.models.length !== 1) {
    printDiagnostics(checked, 'text', io);
    return 1;
  }
  const model = checked.models[0]!;
  const reporter = (stringFlag(args, 'reporter') ?? 'text') as Reporter;
  const replay = stringFlag(args, 'replay');
  const started = performance.now();
  const cases = replay !== undefined
    ? await runReplay(model, target, readReplayFile(resolve(io.cwd, replay)), options)
    : await runTests({ model, locate: checked.locators.get(model)! }, target, options);
  const failed = cases.some((c) => c.status === 'failed');
  const save = stringFlag(args, 'save') ?? replay ?? DEFAULT_SAVE;
  let replayCommand: string | undefined;
  if (failed) {
    writeFilesAtomically(new Map([[resolve(io.cwd, save), replayFileText(cases, options.seed)]]));
    replayCommand = commandLine(['mcpgen', 'test', specArg, ...(target.kind === 'http' ? ['--url', target.url] : []), '--replay', save, ...(target.kind === 'stdio' ? ['--', target.command, ...target.args] : [])]);
  }
  io.stdout(formatReport({ cases, seed: options.seed, seconds: (performance.now() - started) / 1000, ...(replayCommand === undefined ? {} : { replayCommand }) }, reporter));
  return failed ? 1 : 0;
}

function targetOf(url: string | undefined, command: readonly string[], cwd: string): ServerTarget {
  if (url !== undefined && command.length > 0) throw new UsageError('give either --url or `-- command [args…]`, not both');
  if (url !== undefined) return { kind: 'http', url };
  const [program, ...rest] = command;
  if (program === undefined || program === '') throw new UsageError('test needs the server: `--url URL` (Streamable HTTP) or `-- command [args…]` (stdio)');
  // The server gets this process's environment (its tokens and settings), as a script in `npm test` would.
  return { kind: 'stdio', command: program, args: rest, cwd, env: { ...process.env } as Record<string, string> };
}

function optionsOf(args: Parsed): TestOptions {
  const int = (name: string, fallback: number, min: number): number => {
    const raw = stringFlag(args, name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer of at least ${min}; got ${JSON.stringify(raw)}`);
    return n;
  };
  const d = DEFAULT_OPTIONS;
  return {
    seed: int('seed', d.seed, Number.MIN_SAFE_INTEGER),
    maxCalls: int('max-calls', d.maxCalls, 1),
    runs: int('runs', d.runs, 1),
    timeoutMs: int('timeout', d.timeoutMs, 1),
    concurrency: int('concurrency', d.concurrency, 1),
    includeDestructive: args.flags.has('include-destructive'),
    readOnlyOnly: args.flags.has('read-only-only'),
    allowToolErrors: args.flags.has('allow-tool-errors'),
    exclude: (stringFlag(args, 'exclude') ?? '').split(',').map((s) => s.trim()).filter((s) => s !== ''),
  };
}

/** A command line a POSIX shell runs as shown: words quoted only when they need it. */
function commandLine(words: readonly string[]): string {
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`)).join(' ');
}
