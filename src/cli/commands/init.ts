import { existsSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { camelCase } from '../../common/names.js';
import { packageFileUrl } from '../../common/package-files.js';
import { renderTemplate } from '../../common/templates.js';
import { UsageError } from '../../errors.js';
import { CONFIG_FILE, readConfigFile, toConfig, type Config } from '../../load/config.js';
import { expandGlob, isGlob } from '../../load/glob.js';
import { writeFilesAtomically } from '../../write/atomic.js';
import type { Parsed } from '../args.js';
import type { Io } from '../report.js';

export function runInit(args: Parsed, io: Io): number {
  if (args.positional.length > 1) throw new UsageError('init takes at most one spec path');
  const specPath = resolve(io.cwd, args.positional[0] ?? 'specs/server.yaml');
  const force = args.flags.has('force');
  if (existsSync(specPath) && !force) throw new UsageError(`${relative(io.cwd, specPath)} exists; pass --force to overwrite it`);
  const schema = fileURLToPath(packageFileUrl('schema/mcpgen.schema.json'));
  const stem = basename(specPath).replace(/\.ya?ml$/i, '');
  const name = camelCase(stem).toLowerCase().replace(/[^a-z0-9]/g, '') || 'server';
  const files = new Map<string, string>();
  files.set(specPath, renderTemplate('starter-spec.yaml', {
    schemaPath: relative(dirname(specPath), schema).split('\\').join('/'),
    name,
    title: JSON.stringify(serverTitle(stem)),
  }));
  const configPath = resolve(io.cwd, CONFIG_FILE);
  const hadConfig = existsSync(configPath);
  if (!hadConfig) {
    files.set(configPath, renderTemplate('starter-config.yaml', { specGlob: JSON.stringify(`${relative(io.cwd, dirname(specPath)).split('\\').join('/') || '.'}/*.yaml`) }));
  }
  writeFilesAtomically(files);
  for (const f of files.keys()) io.stderr(`wrote ${relative(io.cwd, f)}\n`);
  const config = readConfig(configPath);
  const shown = (p: string) => relative(io.cwd, p).split('\\').join('/');
  if (hadConfig && config !== undefined && !listsSpec(config, specPath)) {
    io.stderr(`note: ${CONFIG_FILE} does not list ${shown(specPath)} under \`specs\`, so \`mcpgen check\` and \`mcpgen generate\` without arguments skip it; add it there\n`);
  }
  const out = resolve(config?.dir ?? io.cwd, config?.out ?? 'generated', name);
  const handlers = config?.handlers === undefined ? join(out, 'handlers.ts') : resolve(config.dir, config.handlers.replaceAll('{server}', name));
  io.stderr(
    [
      'next steps:',
      `  1. describe your tools, resources and prompts in ${shown(specPath)}; \`npx mcpgen check\` validates it`,
      `  2. npx mcpgen generate          # writes ${shown(out)}/`,
      `  3. implement ${shown(handlers)} (written once with a stub per method; yours from then on)`,
      config?.packageFiles === false
        ? `  4. compile ${shown(out)}/ with your own tsconfig (packageFiles: false), then run its main.js   # serves stdio (--http --port 3000 for HTTP)`
        : `  4. npx tsc -p ${shown(out)} && node ${shown(out)}/dist/main.js   # serves stdio (--http --port 3000 for HTTP)`,
      'editor: `npx mcpgen lsp` is a language server (diagnostics as you type, quick fixes, completion); set-up for Neovim, VS Code, Zed and Helix in docs/editor.md',
      '',
    ].join('\n'),
  );
  return 0;
}

/** "Weather server" from weather.yaml or weather-server.yaml; "My MCP server" from server.yaml. */
function serverTitle(stem: string): string {
  const words = stem.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  while (words.length > 0 && /^(server|mcp)$/i.test(words[words.length - 1]!)) words.pop();
  if (words.length === 0) return 'My MCP server';
  const text = words.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)} server`;
}

/** The config when it reads and parses; a broken one is `check`'s to report, not init's. */
function readConfig(path: string): Config | undefined {
  if (!existsSync(path)) return undefined;
  const file = readConfigFile(path, dirname(path));
  const value = file.source?.value as { specs?: unknown } | undefined;
  if (file.diagnostics.length > 0 || !Array.isArray(value?.specs)) return undefined;
  return toConfig(file);
}

function listsSpec(config: Config, spec: string): boolean {
  return config.specs.some((p) => (isGlob(p) ? expandGlob(p, config.dir).map((m) => resolve(config.dir, m)) : [resolve(config.dir, p)]).includes(spec));
}
