// `mcpgen import openapi <file|url>`: writes the spec and its proxy handlers, then checks the spec with
// the same pipeline `mcpgen check` runs, so what the import wrote is known to be accepted.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { stringify } from 'yaml';
import { hasErrors, sortDiagnostics } from '../../diagnostics/diagnostic.js';
import { UsageError } from '../../errors.js';
import { handlersFile, IMPORT_MARK } from '../../import/openapi/handlers-file.js';
import { importOpenApi } from '../../import/openapi/index.js';
import { check } from '../../pipeline.js';
import { writeFilesAtomically } from '../../write/atomic.js';
import { stringFlag, type Parsed } from '../args.js';
import { printDiagnostics, type Io } from '../report.js';

export async function runImport(args: Parsed, io: Io): Promise<number> {
  const [kind, input, ...extra] = args.positional;
  if (kind !== 'openapi') throw new UsageError(`import needs a source kind: \`mcpgen import openapi <file|url>\`${kind === undefined ? '' : `; got ${JSON.stringify(kind)}`}`);
  if (input === undefined || extra.length > 0) throw new UsageError('import openapi takes one OpenAPI file or URL');
  const format = (stringFlag(args, 'format') ?? 'text') as 'text' | 'json';
  const list = (flag: string) => stringFlag(args, flag)?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const name = stringFlag(args, 'name');
  const imported = await importOpenApi(input, io.cwd, {
    ...(name !== undefined ? { name } : {}),
    ...optional('tags', list('tag')),
    ...optional('operations', list('operation')),
    ...optional('methods', list('method')?.map((m) => m.toLowerCase())),
  });
  const sources = new Map<string, string>();
  if (!/^https?:/i.test(input) && existsSync(resolve(io.cwd, input))) sources.set(input, readFileSync(resolve(io.cwd, input), 'utf8'));
  if (hasErrors(imported.diagnostics)) {
    printDiagnostics({ diagnostics: sortDiagnostics(imported.diagnostics), files: [input], sources }, format, io);
    return 1;
  }
  const specPath = resolve(io.cwd, stringFlag(args, 'out') ?? `specs/${imported.serverName}.yaml`);
  const handlersPath = resolve(io.cwd, stringFlag(args, 'handlers') ?? `generated/${imported.serverName}/handlers.ts`);
  const serverTs = join(resolve(io.cwd, stringFlag(args, 'generated') ?? 'generated'), imported.serverName, 'server.js');
  refuseToReplace(handlersPath, args.flags.has('force'), io.cwd);
  const specText = `# Written by \`mcpgen import openapi\` from ${JSON.stringify(input)}; re-importing rewrites this file.\n${stringify(imported.spec, { lineWidth: 0, aliasDuplicateObjects: false })}`;
  writeFilesAtomically(new Map([[specPath, specText], [handlersPath, handlersFile(imported, JSON.stringify(input), importPath(handlersPath, serverTs))]]));
  const checked = check([specPath], io.cwd);
  for (const [file, text] of checked.sources) sources.set(file, text);
  printDiagnostics({ diagnostics: sortDiagnostics([...imported.diagnostics, ...checked.diagnostics]), files: [input, ...checked.files], sources }, format, io);
  io.stderr(`wrote ${relative(io.cwd, specPath)} (${(imported.spec.tools as unknown[]).length} tools) and ${relative(io.cwd, handlersPath)} (proxy handlers); next: npx mcpgen generate ${relative(io.cwd, specPath)}\n`);
  return hasErrors(checked.diagnostics) ? 1 : 0;
}

function optional<K extends string>(key: K, value: string[] | undefined): { [P in K]?: string[] } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string[] };
}

/** A handlers file someone made their own (its first line no longer the import's) is never replaced without --force. */
function refuseToReplace(path: string, force: boolean, cwd: string): void {
  if (force || !existsSync(path)) return;
  if (readFileSync(path, 'utf8').startsWith(IMPORT_MARK)) return;
  throw new UsageError(`${relative(cwd, path)} exists and is not the import's (its first line is not "${IMPORT_MARK}"); pass --handlers elsewhere, or --force to replace it`);
}

function importPath(from: string, to: string): string {
  const rel = relative(dirname(from), to).replaceAll('\\', '/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}
