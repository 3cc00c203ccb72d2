import type { Diagnostic, Fix, FixEdit } from '../diagnostics/diagnostic.js';
import { didYouMean } from '../common/suggest.js';
import { renameKeyEdit, replaceScalarEdit } from '../parse/edits.js';
import { moveItemToList, movePairInto, movePairUp } from '../parse/moves.js';
import type { JsonPath, SourceFile } from '../parse/source.js';

/**
 * Diagnostics that teach (issue 47): the mistakes newcomers make most get a message that says what to
 * write instead, and a fix (Diagnostic.fix) where the change is certain. MCP's wire names (`inputSchema`…)
 * are recognised as such.
 */

export function fixOf(title: string, edits: readonly (FixEdit | undefined)[] | undefined): Fix | undefined {
  if (edits === undefined || edits.length === 0 || edits.some((e) => e === undefined)) return undefined;
  return { title, edits: edits as FixEdit[] };
}

export function withFix(d: Diagnostic, fix: Fix | undefined): Diagnostic {
  return fix === undefined ? d : { ...d, fix };
}

export function renameFix(source: SourceFile, path: JsonPath, to: string): Fix | undefined {
  return fixOf(`Rename "${String(path[path.length - 1])}" to "${to}"`, [renameKeyEdit(source, path, to)]);
}

/** Keys of MCP's wire format that a spec spells otherwise, by the list whose entries they sit in. */
const WIRE_NAMES: Readonly<Record<string, Readonly<Record<string, { readonly to: string; readonly what: string }>>>> = {
  tools: {
    inputSchema: { to: 'input', what: "the tool's argument schema" },
    outputSchema: { to: 'output', what: "the tool's result schema" },
  },
  resourceTemplates: { uri: { to: 'uriTemplate', what: "a template's URI" } },
};

export interface Taught {
  readonly message: string;
  readonly fix?: Fix | undefined;
}

/**
 * The rest of an "unknown key" message, and its fix: a wire name, a key that belongs elsewhere, or a
 * near miss of an allowed key. `path` is the mapping holding the key.
 */
export function unknownKeyHint(source: SourceFile, path: JsonPath, key: string, allowed: readonly string[]): Taught {
  const list = path.length === 2 && typeof path[1] === 'number' ? String(path[0]) : undefined;
  const at = [...path, key];
  const wire = list !== undefined ? WIRE_NAMES[list]?.[key] : undefined;
  if (wire !== undefined) {
    return { message: `: "${key}" is the name on the wire; a spec writes ${wire.what} as "${wire.to}"`, fix: renameFix(source, at, wire.to) };
  }
  if (list === 'resources' && key === 'uriTemplate') {
    return { message: ': a URI template is declared under `resourceTemplates:`', fix: fixOf('Move to resourceTemplates', moveItemToList(source, path, 'resourceTemplates')) };
  }
  if (list === 'tools' && key === 'x-mcp-header') return headerHint(source, path);
  const hint = didYouMean(key, allowed);
  if (hint !== undefined) return { message: `; did you mean "${hint}"?`, fix: renameFix(source, at, hint) };
  return { message: allowed.length > 0 ? `; allowed: ${allowed.join(', ')}` : '' };
}

/** `x-mcp-header` on a tool: it goes on the input property whose name it spells, when one does. */
function headerHint(source: SourceFile, toolPath: JsonPath): Taught {
  const tool = valueAt(source.value, toolPath) as { input?: { properties?: unknown }; 'x-mcp-header'?: unknown };
  const header = tool['x-mcp-header'];
  const props = tool.input?.properties;
  const squash = (s: string): string => s.toLowerCase().replace(/[-_]/g, '');
  const names = props !== null && typeof props === 'object' ? Object.keys(props) : [];
  const name = typeof header === 'string' ? names.find((n) => squash(n) === squash(header)) : undefined;
  const where = name === undefined ? 'input.properties.<name>.x-mcp-header' : `input.properties.${name}`;
  const message = `: x-mcp-header belongs on the property of "input" whose value the header carries (${where})`;
  if (name === undefined) return { message };
  const fix = fixOf(`Move x-mcp-header onto input.properties.${name}`, movePairInto(source, [...toolPath, 'x-mcp-header'], [...toolPath, 'input', 'properties', name]));
  return { message, fix };
}

/** `task: true` / `task: false`: the settings are words. */
export function taskHint(source: SourceFile, path: JsonPath, value: unknown): Taught | undefined {
  if (path[path.length - 1] !== 'task' || typeof value !== 'boolean') return undefined;
  const where = quotedPath(path);
  const word = value ? 'optional' : 'never';
  const message = value
    ? `${where} is true, not a task setting: write \`task: optional\` (a task for clients that support tasks, synchronous for others) or \`task: required\``
    : `${where} is false, not a task setting: write \`task: never\` (the default), or leave it out`;
  return { message, fix: fixOf(`Write \`task: ${word}\``, [replaceScalarEdit(source, path, word)]) };
}

/** A resource URI with `{variables}`: a template, declared elsewhere. */
export function templatedResourceHint(source: SourceFile, itemPath: JsonPath): Fix | undefined {
  return fixOf('Move to resourceTemplates', moveItemToList(source, itemPath, 'resourceTemplates', { from: 'uri', to: 'uriTemplate' }));
}

/** `required:` indented under `properties:` (a property named "required" whose schema is a list of names). */
export function misplacedRequired(source: SourceFile, path: JsonPath, value: unknown, label: string): Taught | undefined {
  if (path[path.length - 1] !== 'required' || path[path.length - 2] !== 'properties') return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return undefined;
  return {
    message: `"required" sits inside "properties", where it would declare a property named "required", in ${label}: indent it one level less, beside "properties"`,
    fix: fixOf('Move "required" beside "properties"', movePairUp(source, path)),
  };
}

/** A `$ref` to a `$defs` entry that does not exist, spelled near one that does. */
export function refHint(source: SourceFile, path: JsonPath, ref: string, defs: readonly string[]): Taught | undefined {
  const m = /^#\/\$defs\/(.+)$/.exec(ref);
  const near = m === null ? undefined : didYouMean(m[1]!, defs);
  if (near === undefined) return undefined;
  const to = `#/$defs/${near}`;
  return { message: `; did you mean "${to}"?`, fix: fixOf(`Change to "${to}"`, [replaceScalarEdit(source, path, to)]) };
}

/** `"tools[1].task"`, as the spec-format messages name a place. */
export function quotedPath(path: JsonPath): string {
  return `"${path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '')}"`;
}

function valueAt(root: unknown, path: JsonPath): unknown {
  let v = root;
  for (const seg of path) v = (v as Record<string | number, unknown> | undefined)?.[seg];
  return v ?? {};
}
