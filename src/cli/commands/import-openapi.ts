// `mcpgen import openapi <file|url>`: writes the spec (tools bound to their operations with `http:`, the
// `upstream:` section), then checks it with the same pipeline `mcpgen check` runs, so what the import
// wrote is known to be accepted. `generate` wires the proxy: no handlers file is written.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { stringify } from 'yaml';
import { hasErrors, sortDiagnostics } from '../../diagnostics/diagnostic.js';
import { UsageError } from '../../errors.js';
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
  const specText = `# Written by \`mcpgen import openapi\` from ${JSON.stringify(input)}; re-importing rewrites this file.\n${stringify(imported.spec, { lineWidth: 0, aliasDuplicateObjects: false })}`;
  writeFilesAtomically(new Map([[specPath, specText]]));
  const retired = retireImportHandlers(handlersPath);
  const checked = check([specPath], io.cwd);
  for (const [file, text] of checked.sources) sources.set(file, text);
  printDiagnostics({ diagnostics: sortDiagnostics([...imported.diagnostics, ...checked.diagnostics]), files: [input, ...checked.files], sources }, format, io);
  if (retired) io.stderr(`removed ${relative(io.cwd, handlersPath)}, the proxy handlers an earlier import wrote: the spec's \`http:\` bindings replace them (generate writes upstream.ts and a handlers scaffold for the unbound tools)\n`);
  io.stderr(`wrote ${relative(io.cwd, specPath)} (${(imported.spec.tools as unknown[]).length} tools bound to their operations with \`http:\`); next: npx mcpgen generate ${relative(io.cwd, specPath)}\n`);
  return hasErrors(checked.diagnostics) ? 1 : 0;
}

function optional<K extends string>(key: K, value: string[] | undefined): { [P in K]?: string[] } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string[] };
}

/** First line of the proxy handlers file earlier versions of the import wrote (and owned while it stayed). */
export const IMPORT_MARK = '// Written by `mcpgen import openapi`';

/**
 * Earlier imports wrote the bindings into a handlers file of their own, marked by its first line. Left in
 * place it would still win over the spec's bindings with stale ones, so a re-import removes it while the
 * mark is there; a file without the mark is the team's and stays.
 */
function retireImportHandlers(path: string): boolean {
  if (!existsSync(path) || !readFileSync(path, 'utf8').startsWith(IMPORT_MARK)) return false;
  rmSync(path);
  return true;
}
