import { reservedPrefix } from '../../common/meta-keys.js';
import { Leniency, reviewInputSchema } from './leniency.js';
import type { ServerDump } from './read.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Wire field → spec field, per kind of item; a field not named here is reported as dropped. */
const SERVER_FIELDS = { name: 'name', version: 'version', title: 'title', description: 'description', websiteUrl: 'websiteUrl', icons: 'icons' };
const TOOL_FIELDS = { name: 'name', title: 'title', description: 'description', inputSchema: 'input', outputSchema: 'output', annotations: 'annotations', icons: 'icons', _meta: '_meta' };
const RESOURCE_FIELDS = { uri: 'uri', name: 'name', title: 'title', description: 'description', mimeType: 'mimeType', size: 'size', icons: 'icons', _meta: '_meta' };
const TEMPLATE_FIELDS = { uriTemplate: 'uriTemplate', name: 'name', title: 'title', description: 'description', mimeType: 'mimeType', icons: 'icons', _meta: '_meta' };
const PROMPT_FIELDS = { name: 'name', title: 'title', description: 'description', arguments: 'arguments', icons: 'icons', _meta: '_meta' };
const ARGUMENT_KEYS = new Set(['name', 'title', 'description', 'required']);

export interface Converted {
  readonly spec: Json;
  readonly leniency: Leniency;
}

/** The dump as an mcpgen spec: wire order kept inside items, so the output is readable and stable. */
export function toSpec(dump: ServerDump): Converted {
  const report = new Leniency();
  const spec: Json = { mcpgen: 1, server: server(dump, report) };
  const capabilities = capabilitiesOf(dump.capabilities, report);
  if (Object.keys(capabilities).length > 0) spec.capabilities = capabilities;
  const tools = dump.tools.map((t) => tool(t, report));
  if (tools.length > 0) spec.tools = tools;
  const resources = dump.resources.map((r) => pick(r, RESOURCE_FIELDS, `resource ${String(r.uri)}`, report));
  if (resources.length > 0) spec.resources = resources;
  const templates = dump.resourceTemplates.map((r) => pick(r, TEMPLATE_FIELDS, `resource template ${String(r.uriTemplate)}`, report));
  if (templates.length > 0) spec.resourceTemplates = templates;
  const prompts = dump.prompts.map((p) => prompt(p, report));
  if (prompts.length > 0) spec.prompts = prompts;
  return { spec, leniency: report };
}

function server(dump: ServerDump, report: Leniency): Json {
  const out = pick(dump.serverInfo, SERVER_FIELDS, 'server', report);
  if (out.name === undefined || out.name === '') {
    out.name = 'imported';
    report.add('server', 'changed', '/name', 'the server sent no name; `imported` written');
  }
  if (out.version === undefined || out.version === '') {
    out.version = '0.0.0';
    report.add('server', 'changed', '/version', 'the server sent no version; `0.0.0` written');
  }
  if (dump.instructions !== undefined) out.instructions = dump.instructions;
  const meta = Object.entries(dump.meta ?? {}).filter(([key]) => {
    if (!reservedPrefix(key)) return true;
    report.add('server', 'dropped', `/_meta/${key}`, 'a key under a prefix MCP reserves: the generated server writes those itself (MCPG113)');
    return false;
  });
  if (meta.length > 0) out._meta = Object.fromEntries(meta);
  return out;
}

function capabilitiesOf(sent: Json, report: Leniency): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(sent)) {
    if (key === 'tools' || key === 'prompts') out[key] = flags(value, ['listChanged'], key, report);
    else if (key === 'resources') out[key] = flags(value, ['subscribe', 'listChanged'], key, report);
    else if (key === 'completions') out[key] = true;
    else report.add('server', 'dropped', `/capabilities/${key}`, 'mcpgen specs have no setting for this capability; the generated server announces what its spec derives');
  }
  return out;
}

function flags(value: unknown, known: readonly string[], key: string, report: Leniency): Json | boolean {
  if (!isObject(value)) return true;
  const out: Json = {};
  for (const [flag, v] of Object.entries(value)) {
    if (known.includes(flag) && typeof v === 'boolean') out[flag] = v;
    else report.add('server', 'dropped', `/capabilities/${key}/${flag}`, 'not a flag mcpgen specs carry');
  }
  return Object.keys(out).length > 0 ? out : true;
}

function tool(sent: Json, report: Leniency): Json {
  const item = `tool ${String(sent.name)}`;
  const out = pick(sent, TOOL_FIELDS, item, report, ['execution']);
  const support = isObject(sent.execution) ? sent.execution.taskSupport : undefined;
  if (support === 'optional' || support === 'required') {
    out.task = support;
    report.add(item, 'changed', '/execution', `taskSupport ${support} written as \`task: ${support}\`; the handler must follow the tasks extension`);
  } else if (support === 'forbidden') {
    // Not silent: the tool is synchronous either way, but tools/list no longer sends `execution`.
    report.add(item, 'changed', '/execution', 'taskSupport forbidden is what an mcpgen tool without `task` means; the generated server does not send `execution`');
  } else if (sent.execution !== undefined) {
    report.add(item, 'dropped', '/execution', 'an execution setting mcpgen does not know');
  }
  reviewInputSchema(item, sent.inputSchema, report);
  return out;
}

function prompt(sent: Json, report: Leniency): Json {
  const item = `prompt ${String(sent.name)}`;
  const out = pick(sent, PROMPT_FIELDS, item, report);
  if (Array.isArray(out.arguments)) {
    out.arguments = out.arguments.map((a: unknown, i) => {
      if (!isObject(a)) return a;
      const kept: Json = {};
      for (const [k, v] of Object.entries(a)) {
        if (ARGUMENT_KEYS.has(k)) kept[k] = v;
        else report.add(item, 'dropped', `/arguments/${i}/${k}`, 'not a prompt-argument field mcpgen specs carry');
      }
      return kept;
    });
  }
  return out;
}

/** Copies the known fields in the order the server sent them; every other field is reported as dropped. */
function pick(sent: Json, fields: Record<string, string>, item: string, report: Leniency, handled: readonly string[] = []): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(sent)) {
    const to = fields[key];
    if (to !== undefined) {
      if (value !== undefined) out[to] = value;
    } else if (!handled.includes(key)) {
      report.add(item, 'dropped', `/${key}`, 'mcpgen specs have no place for this field');
    }
  }
  return out;
}
