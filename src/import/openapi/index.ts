// `mcpgen import openapi`: an OpenAPI description (Swagger 2.0, OpenAPI 3.0, 3.1) → an mcpgen spec value
// whose tools are bound to their operations (`http:`) and whose `upstream:` says where those are. A front
// end only: the spec it returns goes through the one pipeline (check, generate) like a hand-written one,
// and the generated server's proxy answers the bound tools.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { toolMethodName } from '../../common/names.js';
import type { RawUpstream } from '../../validate/spec-types.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { renameClashingDefs, SpecDefs } from './defs.js';
import { noteDiagnostics, type ImportNote } from './notes.js';
import { mapOperation, METHODS, type OperationRef } from './operations.js';
import { readDescription } from './read.js';
import { selected, type Selection } from './select.js';
import { isObj } from './schema.js';
import { newSchemaSink, type SchemaSink } from './schema-repair.js';
import { repairValues } from './schema-values.js';
import { operationSecurity, upstreamAuth, upstreamBaseUrl } from './upstream.js';

type Obj = Record<string, unknown>;

export interface OpenApiImport {
  readonly serverName: string;
  /** The mcpgen spec, as data (written as YAML by the command): tools with `http:`, and `upstream:`. */
  readonly spec: Obj;
  /** The spec's `upstream:` section (also in `spec`), for a command that writes it elsewhere. */
  readonly upstream: RawUpstream;
  readonly diagnostics: readonly Diagnostic[];
}

export interface OpenApiImportOptions extends Selection {
  readonly name?: string;
}

export async function importOpenApi(input: string, cwd: string, options: OpenApiImportOptions = {}): Promise<OpenApiImport> {
  const isUrl = /^https?:\/\//i.test(input);
  const location = isUrl ? input : resolve(cwd, input);
  const source = (): Uint8Array | undefined => (isUrl ? undefined : readSource(location));
  let doc: Obj;
  let get: (ref: string) => unknown;
  try {
    ({ doc, get } = await readDescription(location));
  } catch (e) {
    const message = `not a readable OpenAPI description: ${(e as Error).message.split('\n')[0]}`;
    return { serverName: '', spec: {}, upstream: {}, diagnostics: noteDiagnostics([{ code: 'MCPG130', pointer: [], message }], input, source) };
  }
  const notes: ImportNote[] = [];
  const swagger2 = doc.swagger === '2.0';
  const components = swagger2 ? doc.definitions : isObj(doc.components) ? doc.components.schemas : undefined;
  const sink = newSchemaSink(notes);
  const defs = new SpecDefs(get, isObj(components) ? components : {}, swagger2 ? '#/definitions/' : '#/components/schemas/', sink);
  const deref = (v: unknown): unknown => {
    for (let i = 0; i < 8 && isObj(v) && typeof v.$ref === 'string'; i++) v = get(v.$ref);
    return v;
  };
  const info = isObj(doc.info) ? doc.info : {};
  const serverName = options.name ?? machineName(typeof info.title === 'string' ? info.title : 'api');
  const tools: Obj[] = [];
  const names = new Set<string>();
  const auth = upstreamAuth(doc, swagger2, serverName, notes);
  for (const ref of operations(doc, swagger2, defs, deref, sink)) {
    if (!selected(ref, options)) continue;
    const name = uniqueName(toolName(ref), names);
    const mapped = mapOperation(ref, name, notes);
    if (mapped === undefined) continue;
    if (typeof ref.op['x-mcp-description'] === 'string') mapped.tool.description = ref.op['x-mcp-description'];
    const security = operationSecurity(ref.op, doc, auth);
    tools.push({ ...mapped.tool, http: security === undefined ? mapped.http : { ...mapped.http, security } });
  }
  repairValues([...Object.values(defs.defs), ...tools.flatMap((t) => [t.input, t.output])], defs.defs, sink);
  renameClashingDefs(defs.defs, tools, serverName);
  const baseUrl = upstreamBaseUrl(doc, swagger2);
  // Without a usable server URL the spec says none: check warns (MCPG118), <SERVER>_BASE_URL sets it.
  const upstream: RawUpstream = { ...(baseUrl !== '' ? { baseUrl } : {}), ...(Object.keys(auth).length > 0 ? { security: auth } : {}) };
  const spec: Obj = {
    mcpgen: 1,
    server: { name: serverName, version: typeof info.version === 'string' && info.version !== '' ? info.version : '0.0.0', ...(typeof info.title === 'string' ? { title: info.title } : {}), ...(typeof info.description === 'string' && info.description.trim() !== '' ? { description: summaryOf(info.description) } : {}) },
    ...(Object.keys(upstream).length > 0 ? { upstream } : {}),
    ...(Object.keys(defs.defs).length > 0 ? { $defs: defs.defs } : {}),
    tools,
  };
  return { serverName, spec, upstream, diagnostics: noteDiagnostics(notes, input, source) };
}

function readSource(path: string): Uint8Array | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

function* operations(doc: Obj, swagger2: boolean, defs: SpecDefs, deref: (v: unknown) => unknown, sink: SchemaSink): Generator<OperationRef> {
  const paths = isObj(doc.paths) ? doc.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const pathItem = deref(rawItem);
    if (!isObj(pathItem)) continue;
    for (const method of METHODS) {
      const op = pathItem[method];
      if (isObj(op)) yield { method, path, op, pathItem, pointer: ['paths', path, method], swagger2, defs: defs.defs, refs: defs.ref, sink, deref, ...(Array.isArray(doc.consumes) ? { consumes: doc.consumes } : {}) };
    }
  }
}

/** `x-mcp-name`, else the operationId, else method and path (`get_pets_petId`), fitted to the tool-name rule. */
function toolName(ref: OperationRef): string {
  const raw = typeof ref.op['x-mcp-name'] === 'string' ? ref.op['x-mcp-name'] : typeof ref.op.operationId === 'string' ? ref.op.operationId : `${ref.method}_${ref.path}`;
  const name = raw.replace(/[{}]/g, '').replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+|_+$/g, '');
  return (name === '' ? ref.method : name).slice(0, 120);
}

/** Two operations whose names fit the rule to the same tool name or handler method: the later gets `_2`. */
function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let i = 2; taken.has(toolMethodName(name).toLowerCase()); i++) name = `${base}_${i}`;
  taken.add(toolMethodName(name).toLowerCase());
  return name;
}

/**
 * The server description from `info.description`: its first paragraph, at most 400 characters (cut after
 * a sentence where one ends). Descriptions run to pages (a 15 KB one-line one), which the team's spec and
 * every client's server/discover then carried whole.
 */
function summaryOf(text: string): string {
  const first = text.trim().split(/\n\s*\n/)[0]!.trim();
  if (first.length <= MAX_SUMMARY) return first;
  const cut = first.slice(0, MAX_SUMMARY);
  const sentence = cut.lastIndexOf('. ');
  return sentence > MAX_SUMMARY / 2 ? cut.slice(0, sentence + 1) : `${cut.trimEnd()}…`;
}

const MAX_SUMMARY = 400;

function machineName(title: string): string {
  const name = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^[^a-z]+|-+$/g, '');
  return name === '' ? 'api' : name.slice(0, 64);
}
