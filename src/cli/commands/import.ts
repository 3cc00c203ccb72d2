import { relative, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { formatLeniency, importMcp, type Era, type ServerTarget } from '../../import/mcp/index.js';
import { writeFilesAtomically } from '../../write/atomic.js';
import { stringFlag, type Parsed } from '../args.js';
import type { Io } from '../report.js';

/** `mcpgen import mcp [--out FILE] [--hoist-defs] [--era auto|2025|2026] (--url URL | -- command [args…])` */
export async function runImport(args: Parsed, io: Io): Promise<number> {
  const [source, ...command] = args.positional;
  if (source !== 'mcp') throw new UsageError(source === undefined ? 'import needs a source: `mcpgen import mcp --url URL`, `mcpgen import mcp -- command [args…]` or `mcpgen import openapi <file|url>`' : `unknown import source ${JSON.stringify(source)}; known: mcp, openapi`);
  const target = targetOf(stringFlag(args, 'url'), command);
  const timeout = stringFlag(args, 'timeout');
  const timeoutMs = timeout === undefined ? 30_000 : Number(timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new UsageError(`--timeout must be a positive number of milliseconds; got ${JSON.stringify(timeout)}`);
  const result = await importMcp({ target, era: (stringFlag(args, 'era') ?? 'auto') as Era, hoistDefs: args.flags.has('hoist-defs'), timeoutMs });
  const out = stringFlag(args, 'out');
  const report = stringFlag(args, 'report');
  const files = new Map<string, string>();
  if (out !== undefined) files.set(resolve(io.cwd, out), result.yaml);
  if (report !== undefined) files.set(resolve(io.cwd, report), `${JSON.stringify(result.leniency, null, 2)}\n`);
  writeFilesAtomically(files);
  if (out === undefined) io.stdout(result.yaml);
  io.stderr(formatLeniency(result.leniency));
  const d = result.dump;
  io.stderr(`imported ${d.tools.length} tools, ${d.resources.length} resources, ${d.resourceTemplates.length} resource templates, ${d.prompts.length} prompts (protocol ${d.protocolVersion ?? 'unknown'}); ${result.leniency.length} leniency entries${out === undefined ? '' : `; wrote ${relative(io.cwd, resolve(io.cwd, out))}`}\n`);
  return 0;
}

function targetOf(url: string | undefined, command: readonly string[]): ServerTarget {
  if (url !== undefined && command.length > 0) throw new UsageError('give either --url or `-- command [args…]`, not both');
  if (url !== undefined) return { kind: 'http', url };
  const [program, ...rest] = command;
  if (program === undefined || program === '') throw new UsageError('import mcp needs the server: `--url URL` (Streamable HTTP) or `-- command [args…]` (stdio)');
  return { kind: 'stdio', command: program, args: rest };
}
