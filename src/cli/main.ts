import { mcpgenVersion } from '../common/package-files.js';
import { EnvironmentError, UsageError } from '../errors.js';
import { parseArgs, type FlagSpec } from './args.js';
import { commandHelp, HELP } from './help.js';
import type { Io } from './report.js';

const COMMON: FlagSpec[] = [
  { name: 'format', value: true, choices: ['text', 'json'] },
  { name: 'config', value: true },
  { name: 'color' },
  { name: 'no-color' },
];

const IMPORT_FLAGS: Record<string, FlagSpec[]> = {
  mcp: [{ name: 'url', value: true }, { name: 'out', value: true }, { name: 'report', value: true }, { name: 'hoist-defs' }, { name: 'era', value: true, choices: ['auto', '2025', '2026'] }, { name: 'timeout', value: true }],
  openapi: [...COMMON, ...['out', 'handlers', 'name', 'tag', 'operation', 'method'].map((name) => ({ name, value: true })), { name: 'force' }, { name: 'generate' }],
};
const TEST_FLAGS: FlagSpec[] = [
  ...['url', 'replay', 'save', 'seed', 'max-calls', 'runs', 'timeout', 'concurrency', 'exclude'].map((name) => ({ name, value: true })),
  { name: 'reporter', value: true, choices: ['text', 'json', 'junit'] },
  ...['include-destructive', 'read-only-only', 'allow-tool-errors'].map((name) => ({ name })),
];
const BREAKING: FlagSpec[] = [
  { name: 'base', value: true },
  { name: 'against', value: true },
  { name: 'format', value: true, choices: ['text', 'json', 'markdown', 'github'] },
  { name: 'config', value: true },
  { name: 'color' },
  { name: 'no-color' },
];

// Each command's module is imported only when it runs: `check` never loads the emitters, and a `generate`
// whose outputs are current loads neither them nor ts-morph (see commands/generate.ts).
const COMMANDS: Record<string, { flags: FlagSpec[] | ((rest: readonly string[]) => FlagSpec[]); run: (args: ReturnType<typeof parseArgs>, io: Io) => number | Promise<number> }> = {
  check: { flags: [...COMMON, { name: 'target', value: true }], run: async (args, io) => (await import('./commands/check.js')).runCheck(args, io) },
  generate: { flags: [...COMMON, { name: 'out', value: true }, { name: 'check' }, { name: 'watch' }], run: async (args, io) => (await import('./commands/generate.js')).runGenerate(args, io) },
  import: {
    // Each source has its own options, so `import openapi --url` is refused like any unknown option.
    flags: (rest) => IMPORT_FLAGS[rest[0] ?? ''] ?? [...new Map(Object.values(IMPORT_FLAGS).flat().map((f) => [f.name, f])).values()],
    run: async (args, io) => (args.positional[0] === 'openapi' ? (await import('./commands/import-openapi.js')).runImport(args, io) : (await import('./commands/import.js')).runImport(args, io)),
  },
  breaking: { flags: BREAKING, run: async (args, io) => (await import('./commands/breaking.js')).runBreaking(args, io, 'breaking') },
  diff: { flags: BREAKING, run: async (args, io) => (await import('./commands/breaking.js')).runBreaking(args, io, 'diff') },
  init: { flags: [{ name: 'force' }], run: async (args, io) => (await import('./commands/init.js')).runInit(args, io) },
  lsp: { flags: [{ name: 'stdio' }], run: async (args, io) => (await import('./commands/lsp.js')).runLsp(args, io) },
  test: { flags: TEST_FLAGS, run: async (args, io) => (await import('./commands/test.js')).runTest(args, io) },
};

/** For bin/mcpgen.js: whether the command ran the pipeline (then the CLI's code cache it saves is complete). */

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
    const own = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest; // after `--`: the served command's own argv
    if (own.includes('--help') || own.includes('-h')) {
      out.stdout(commandHelp(command));
      return 0;
    }
    const args = parseArgs(rest, typeof entry.flags === 'function' ? entry.flags(rest) : entry.flags);
    // The validator loads ajv on first use with require(), which Node before 20.19 cannot do for it.
    if (command !== 'init' && command !== 'import' && (process.features as { require_module?: boolean }).require_module !== true) await (await import('../validate/rules/json-schema.js')).loadAjvAhead();
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
