import { existsSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { camelCase } from '../../common/names.js';
import { packageFileUrl } from '../../common/package-files.js';
import { renderTemplate } from '../../common/templates.js';
import { UsageError } from '../../errors.js';
import { CONFIG_FILE } from '../../load/config.js';
import { writeFilesAtomically } from '../../write/atomic.js';
import type { Parsed } from '../args.js';
import type { Io } from '../report.js';

export function runInit(args: Parsed, io: Io): number {
  if (args.positional.length > 1) throw new UsageError('init takes at most one spec path');
  const specPath = resolve(io.cwd, args.positional[0] ?? 'specs/server.yaml');
  const force = args.flags.has('force');
  if (existsSync(specPath) && !force) throw new UsageError(`${relative(io.cwd, specPath)} exists; pass --force to overwrite it`);
  const schema = fileURLToPath(packageFileUrl('schema/mcpgen.schema.json'));
  const name = camelCase(basename(specPath).replace(/\.ya?ml$/i, '')).toLowerCase().replace(/[^a-z0-9]/g, '') || 'server';
  const files = new Map<string, string>();
  files.set(specPath, renderTemplate('starter-spec.yaml', {
    schemaPath: relative(dirname(specPath), schema).split('\\').join('/'),
    name,
    title: JSON.stringify(`${name.charAt(0).toUpperCase()}${name.slice(1)} server`),
  }));
  const configPath = resolve(io.cwd, CONFIG_FILE);
  if (!existsSync(configPath)) {
    files.set(configPath, renderTemplate('starter-config.yaml', { specGlob: JSON.stringify(`${relative(io.cwd, dirname(specPath)).split('\\').join('/') || '.'}/*.yaml`) }));
  }
  writeFilesAtomically(files);
  for (const f of files.keys()) io.stderr(`wrote ${relative(io.cwd, f)}\n`);
  return 0;
}
