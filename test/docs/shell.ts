// Cheap checks of the shell commands README and docs/ tell a user to run: each command is one this
// repository has (an npm script, a CLI command and its flags, an entry-point flag, a file), without
// running the slow ones. A command no rule here knows is reported, so a new kind of command in the
// docs needs a check (or a test that runs it) before it lands.
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEntryArgs } from '@mcpgen/runtime/server';
import { vendoredPack } from '../../src/common/package-files.js';
import { ROOT } from '../support/root.js';
import { words } from './markdown.js';

const pkg = (dir: string): { name: string; version: string; scripts?: Record<string, string> } =>
  JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8'));

/** Options every mcpgen command takes (the "Options:" part of `mcpgen --help`). */
const GLOBAL_OPTIONS = ['--format', '--color', '--no-color', '--config', '-h', '--help', '-v', '--version'];

/** `mcpgen --help`, one entry per command ("import openapi" → its usage lines and description). */
export function helpEntries(help: string): Map<string, string> {
  const entries = new Map<string, string>();
  let name: string | undefined;
  for (const line of help.split('\n')) {
    const head = /^ {2}mcpgen ((?:[a-z]+ ?){1,2})/.exec(line)?.[1];
    if (head !== undefined) {
      name = head.trim();
      entries.set(name, line);
    } else if (name !== undefined && line.startsWith('    ')) entries.set(name, `${entries.get(name)!}\n${line}`);
    else name = undefined;
  }
  return entries;
}

export interface ShellContext {
  /** `mcpgen --help` output. */
  readonly help: string;
  /** Server names an earlier command of the same page creates (`init specs/x.yaml`, `--name x`). */
  readonly made: ReadonlySet<string>;
}

/** Server names a page's commands create, so later lines may build and run them. */
export function madeNames(lines: readonly string[]): Set<string> {
  const made = new Set<string>();
  for (const line of lines) {
    const w = words(line);
    const init = w.indexOf('init');
    if (init > 0 && w[init - 1] === 'mcpgen' && w[init + 1] !== undefined) made.add(w[init + 1]!.replace(/^.*\//, '').replace(/\.ya?ml$/, ''));
    const name = w.indexOf('--name');
    if (name > 0 && w[name + 1] !== undefined) made.add(w[name + 1]!);
  }
  return made;
}

/** The problems of one shell line (commands joined by `&&` are checked one by one); [] when it holds. */
export function checkShellLine(line: string, ctx: ShellContext): string[] {
  return line.split('&&').flatMap((part) => {
    const w = words(part);
    while (w.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(w[0]!)) w.shift();
    return w.length === 0 ? [] : checkCommand(w, ctx);
  });
}

function checkCommand(w: string[], ctx: ShellContext): string[] {
  const [cmd, ...rest] = w;
  if (cmd === 'npx' && rest[0] === 'mcpgen') return checkMcpgen(rest.slice(1), ctx);
  if (cmd === 'mcpgen') return checkMcpgen(rest, ctx);
  if (cmd === 'npx' && rest[0] === 'tsc') return checkTsc(rest.slice(1), ctx);
  if (cmd === 'npm') return checkNpm(rest);
  if (cmd === 'node' && /^generated\/[^/]+\/dist\/main\.js$/.test(rest[0] ?? '')) return checkEntry(rest[0]!, rest.slice(1), ctx);
  if (cmd !== undefined && /^deploy\/[\w.-]+\.sh$/.test(cmd)) return checkScript(cmd);
  return [`no check knows the command "${w.join(' ')}"`];
}

function checkMcpgen(args: string[], ctx: ShellContext): string[] {
  const entries = helpEntries(ctx.help);
  const two = args.slice(0, 2).join(' ');
  const name = entries.has(two) ? two : args[0] ?? '';
  const entry = entries.get(name);
  if (entry === undefined) return [`mcpgen ${name}: no such command in mcpgen --help`];
  const flags = args.filter((a) => a.startsWith('-') && a !== '--').map((a) => a.replace(/=.*$/, ''));
  return flags.filter((f) => !GLOBAL_OPTIONS.includes(f) && !new RegExp(`(^|[\\s[(|])${f}([\\s\\]|=,)]|$)`, 'm').test(entry))
    .map((f) => `mcpgen ${name}: option ${f} is not in its mcpgen --help entry`);
}

function checkTsc(args: string[], ctx: ShellContext): string[] {
  const project = args[args.indexOf('-p') + 1];
  if (args.indexOf('-p') < 0 || project === undefined) return ['npx tsc without -p'];
  const server = /^generated\/([^/]+)$/.exec(project)?.[1];
  if (server !== undefined && ctx.made.has(server)) return [];
  return existsSync(join(ROOT, project, 'tsconfig.json')) ? [] : [`npx tsc -p ${project}: no ${project}/tsconfig.json`];
}

function checkNpm(args: string[]): string[] {
  const [sub, ...rest] = args;
  const scripts = pkg('.').scripts ?? {};
  if (sub === 'ci' || sub === 'test') return sub === 'test' && scripts.test === undefined ? ['no npm test script'] : [];
  if (sub === 'run') return scripts[rest[0] ?? ''] === undefined ? [`npm run ${rest[0]}: no such script in package.json`] : [];
  if (sub === 'install') return checkInstall(rest.filter((a) => !a.startsWith('-')));
  return [`no check knows "npm ${args.join(' ')}"`];
}

/** Our own packages are installed at the version this repository builds (the packaging test installs them so), by name or as the pack in vendor/mcpgen/. */
function checkInstall(specs: string[]): string[] {
  const ours = new Map([pkg('.'), pkg('packages/runtime'), pkg('packages/runtime-client')].map((p) => [p.name, p.version]));
  const packs = new Set([...ours].map(([name, version]) => vendoredPack(name, version)));
  return specs.flatMap((s) => {
    if (s.startsWith('./vendor/')) return packs.has(s) ? [] : [`npm install ${s}: pack-all writes ${[...packs].join(', ')}`];
    const at = s.lastIndexOf('@');
    const name = at > 0 ? s.slice(0, at) : s;
    const version = at > 0 ? s.slice(at + 1) : undefined;
    if (!ours.has(name)) return [];
    return version === ours.get(name) ? [] : [`npm install ${s}: this repository builds ${name}@${ours.get(name)}`];
  });
}

function checkEntry(main: string, args: string[], ctx: ShellContext): string[] {
  const server = main.split('/')[1]!;
  const problems: string[] = [];
  if (!ctx.made.has(server) && !existsSync(join(ROOT, 'generated', server, 'main.ts'))) problems.push(`${main}: no generated/${server}/main.ts`);
  const parsed = parseEntryArgs(args);
  if (parsed.kind === 'usage-error') problems.push(`${main} ${args.join(' ')}: ${parsed.message}`);
  return problems;
}

function checkScript(path: string): string[] {
  try {
    accessSync(join(ROOT, path), constants.X_OK);
    return [];
  } catch {
    return [`${path}: missing or not executable`];
  }
}
