import { mcpgenVersion } from '../common/package-files.js';
import { EnvironmentError, UsageError } from '../errors.js';
import { parseArgs, type FlagSpec } from './args.js';
import { runCheck } from './commands/check.js';
import { runGenerate } from './commands/generate.js';
import { runInit } from './commands/init.js';
import { HELP } from './help.js';
import type { Io } from './report.js';

const COMMON: FlagSpec[] = [
  { name: 'format', value: true, choices: ['text', 'json'] },
  { name: 'config', value: true },
  { name: 'color' },
  { name: 'no-color' },
];

const COMMANDS: Record<string, { flags: FlagSpec[]; run: (args: ReturnType<typeof parseArgs>, io: Io) => number | Promise<number> }> = {
  check: { flags: COMMON, run: runCheck },
  generate: { flags: [...COMMON, { name: 'out', value: true }, { name: 'check' }, { name: 'watch' }], run: runGenerate },
  init: { flags: [{ name: 'force' }], run: runInit },
};

export async function main(argv: readonly string[], io: Partial<Io> = {}): Promise<number> {
  const out: Io = {
    cwd: io.cwd ?? process.cwd(),
    stdout: io.stdout ?? ((s) => void process.stdout.write(s)),
    stderr: io.stderr ?? ((s) => void process.stderr.write(s)),
    color: io.color ?? (process.stderr.isTTY === true && process.env.NO_COLOR === undefined),
  };
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
      out.stdout(HELP);
      return command === undefined ? 2 : 0;
    }
    if (command === '-v' || command === '--version') {
      out.stdout(`${mcpgenVersion()}\n`);
      return 0;
    }
    const entry = COMMANDS[command];
    if (entry === undefined) throw new UsageError(`unknown command ${JSON.stringify(command)}; see \`mcpgen --help\``);
    if (rest.includes('--help') || rest.includes('-h')) {
      out.stdout(HELP);
      return 0;
    }
    const args = parseArgs(rest, entry.flags);
    const color = args.flags.has('color') ? true : args.flags.has('no-color') ? false : out.color;
    return await entry.run(args, { ...out, color });
  } catch (e) {
    if (e instanceof UsageError) {
      out.stderr(`mcpgen: ${e.message}\n`);
      return 2;
    }
    if (e instanceof EnvironmentError) {
      out.stderr(`mcpgen: ${e.message}\n`);
      return 1;
    }
    out.stderr(`mcpgen: internal error — this is a bug, please report it with this output:\n${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 3;
  }
}
