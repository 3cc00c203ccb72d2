// `mcpgen import openapi <file|url>`: writes the import's own include file (tools bound to their operations
// with `http:`, the `upstream:` section, $defs; rewritten by each re-import) and the team's root spec that
// includes it (only when it does not exist yet; import/common/owned-spec.ts), then checks the root spec with
// the same pipeline `mcpgen check` runs, so what the import wrote is known to be accepted together with the
// team's overrides. `generate` wires the proxy: no handlers file is written. With --generate the check is
// the one of `mcpgen generate <spec>`, run in this process on the spec just written, which then writes
// what that command writes.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { hasErrors, sortDiagnostics } from '../../diagnostics/diagnostic.js';
import { UsageError } from '../../errors.js';
import { importFiles } from '../../import/common/owned-spec.js';
import { importOpenApi } from '../../import/openapi/index.js';
import { forgetKnownValues, knowValue } from '../../parse/known-values.js';
import { keepValue } from '../../parse/value-cache.js';
import { check } from '../../pipeline.js';
import { writeFilesAtomically } from '../../write/atomic.js';
import { stringFlag, type Parsed } from '../args.js';
import { printDiagnostics, type Io } from '../report.js';
import type { Prior } from './generate.js';

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
  // The description's text only frames the import's own diagnostics: GitHub's is 13 MB, read again for none.
  if (imported.diagnostics.length > 0 && !/^https?:/i.test(input) && existsSync(resolve(io.cwd, input))) sources.set(input, readFileSync(resolve(io.cwd, input), 'utf8'));
  if (hasErrors(imported.diagnostics)) {
    printDiagnostics({ diagnostics: sortDiagnostics(imported.diagnostics), files: [input], sources }, format, io);
    return 1;
  }
  const specPath = resolve(io.cwd, stringFlag(args, 'out') ?? `specs/${imported.serverName}.yaml`);
  const handlersPath = resolve(io.cwd, stringFlag(args, 'handlers') ?? `generated/${imported.serverName}/handlers.ts`);
  const force = args.flags.has('force');
  const from = /^https?:/i.test(input) ? input : relative(io.cwd, resolve(io.cwd, input)).replaceAll('\\', '/');
  const written = importFiles(imported.spec, { command: 'mcpgen import openapi', from, rootPath: specPath, force, cwd: io.cwd, kind: 'openapi' });
  writeFilesAtomically(written.files);
  const retired = retireImportHandlers(handlersPath);
  // The check reads the owned file back: it takes the value the text was written from, not a second parse;
  // so does a later process (parse/value-cache.ts).
  const ownedText = written.files.get(written.ownedPath)!;
  if (knowValue(ownedText, written.ownedValue)) keepValue(ownedText, written.ownedValue);
  const show = (p: string) => relative(io.cwd, p).replaceAll('\\', '/');
  const prior = { diagnostics: imported.diagnostics, files: [input], sources };
  // --generate: the spec just written goes through what `mcpgen generate <spec>` runs, in this process: its
  // check is the import's, so the spec is checked and modeled once, and Node and the CLI start once.
  let code: number;
  try {
    code = args.flags.has('generate') ? await generateStage(args, io, show(specPath), prior) : checkStage(specPath, io, format, prior);
  } finally {
    forgetKnownValues();
  }
  for (const warning of written.warnings) io.stderr(`warning: ${warning}\n`);
  if (retired) io.stderr(`removed ${show(handlersPath)}, the proxy handlers an earlier import wrote: the spec's \`http:\` bindings replace them (generate writes upstream.ts and a handlers scaffold for the unbound tools)\n`);
  const root = written.rootWritten ? `created ${show(specPath)} (yours to edit: server, include, overrides)` : `kept ${show(specPath)} (yours: its overrides apply)`;
  const next = args.flags.has('generate') ? '' : `; next: npx mcpgen generate ${show(specPath)}`;
  io.stderr(`wrote ${show(written.ownedPath)} (${(imported.spec.tools as unknown[]).length} tools bound to their operations with \`http:\`); ${root}${next}\n`);
  return code;
}

/** Without --generate: check the root spec with the pipeline `mcpgen check` runs. */
function checkStage(specPath: string, io: Io, format: 'text' | 'json', prior: Prior): number {
  const checked = check([specPath], io.cwd, undefined, undefined, [], { models: false });
  const sources = new Map([...prior.sources, ...checked.sources]);
  printDiagnostics({ diagnostics: sortDiagnostics([...prior.diagnostics, ...checked.diagnostics]), files: [...prior.files, ...checked.files], sources }, format, io);
  return hasErrors(checked.diagnostics) ? 1 : 0;
}

/** `generate <spec>` with the import's --format and --config (its --out is the spec, not the output folder). */
async function generateStage(args: Parsed, io: Io, spec: string, prior: Prior): Promise<number> {
  const flags = new Map([...args.flags].filter(([name]) => name === 'format' || name === 'config'));
  return (await import('./generate.js')).generateOnce({ positional: [spec], flags }, io, undefined, prior);
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
