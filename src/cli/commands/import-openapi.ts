// `mcpgen import openapi <file|url>`: writes the import's own include file (rewritten by each re-import),
// the team's root spec that includes it (only when it does not exist yet; import/common/owned-spec.ts)
// and the proxy handlers, then checks the root spec with the same pipeline `mcpgen check` runs, so what
// the import wrote is known to be accepted together with the team's overrides.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { toolMethodName } from '../../common/names.js';
import { hasErrors, sortDiagnostics } from '../../diagnostics/diagnostic.js';
import { UsageError } from '../../errors.js';
import { importFiles } from '../../import/common/owned-spec.js';
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
  const force = args.flags.has('force');
  refuseToReplace(handlersPath, force, io.cwd);
  const from = /^https?:/i.test(input) ? input : relative(io.cwd, resolve(io.cwd, input)).replaceAll('\\', '/');
  const written = importFiles(imported.spec, { command: 'mcpgen import openapi', from, rootPath: specPath, force, cwd: io.cwd, kind: 'openapi' });
  const proxied = { ...imported, bindings: written.rootWritten ? imported.bindings : bindingsAfterOverrides(imported.bindings, specPath) };
  writeFilesAtomically(new Map([...written.files, [handlersPath, handlersFile(proxied, JSON.stringify(input), importPath(handlersPath, serverTs))]]));
  const checked = check([specPath], io.cwd);
  for (const [file, text] of checked.sources) sources.set(file, text);
  printDiagnostics({ diagnostics: sortDiagnostics([...imported.diagnostics, ...checked.diagnostics]), files: [input, ...checked.files], sources }, format, io);
  for (const warning of written.warnings) io.stderr(`warning: ${warning}\n`);
  const show = (p: string) => relative(io.cwd, p).replaceAll('\\', '/');
  const root = written.rootWritten ? `created ${show(specPath)} (yours to edit: server, include, overrides)` : `kept ${show(specPath)} (yours: its overrides apply)`;
  io.stderr(`wrote ${show(written.ownedPath)} (${(imported.spec.tools as unknown[]).length} tools) and ${show(handlersPath)} (proxy handlers); ${root}; next: npx mcpgen generate ${show(specPath)}\n`);
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

/**
 * The handlers interface has a method per tool as the root spec's overrides leave them: a tool renamed
 * there is proxied under its new method name, a dropped one not at all (else the handlers file would not
 * compile). Only names are read here; the spec check reports anything wrong with the overrides.
 */
function bindingsAfterOverrides<B>(bindings: Readonly<Record<string, B>>, rootPath: string): Record<string, B> {
  let tools: unknown;
  try {
    tools = (parse(readFileSync(rootPath, 'utf8')) as { overrides?: { tools?: unknown } } | null)?.overrides?.tools;
  } catch {
    return { ...bindings };
  }
  if (typeof tools !== 'object' || tools === null) return { ...bindings };
  const out = { ...bindings };
  // Names as the import declared them, as the overrides match them: `a → c` and `c → d` swap nothing.
  const renamed: [string, B][] = [];
  for (const [name, patch] of Object.entries(tools)) {
    const binding = bindings[toolMethodName(name)];
    if (binding === undefined || (patch !== null && typeof (patch as { name?: unknown }).name !== 'string')) continue;
    delete out[toolMethodName(name)];
    if (patch !== null) renamed.push([toolMethodName((patch as { name: string }).name), binding]);
  }
  for (const [method, binding] of renamed) out[method] = binding;
  return out;
}

function importPath(from: string, to: string): string {
  const rel = relative(dirname(from), to).replaceAll('\\', '/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}
