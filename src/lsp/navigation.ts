import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Location, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { camelCase, serverFolder, toolMethodName } from '../common/names.js';
import type { SourceFile } from '../parse/source.js';
import type { Project } from './project.js';
import { indexSpec, type Mention, type SpecIndex } from './spec-index.js';
import { spotAt } from './spots.js';

/** Go to definition, find references and rename, for `$defs` entries, tools and includes, across a spec's files. */

export function lspRange(source: SourceFile, start: number, end: number) {
  const a = source.lines.linePos(start);
  const b = source.lines.linePos(end);
  return { start: { line: a.line - 1, character: a.col - 1 }, end: { line: b.line - 1, character: b.col - 1 } };
}

function location(m: Mention): Location {
  return { uri: pathToFileURL(m.file).href, range: lspRange(m.source, m.start, m.end) };
}

/** What the cursor names: a `$defs` entry, a tool, or an included file. */
type Target = { kind: 'def' | 'tool'; name: string } | { kind: 'include'; files: readonly string[] };

function targetAt(index: SpecIndex, file: string, offset: number, source: SourceFile): Target | undefined {
  const hit = (m: Mention): boolean => m.file === file && offset >= m.start && offset <= m.end;
  for (const [name, m] of index.defs) if (hit(m)) return { kind: 'def', name };
  for (const [name, ms] of index.defUses) if (ms.some(hit)) return { kind: 'def', name };
  for (const [name, t] of index.tools) if (hit(t.decl)) return { kind: 'tool', name };
  for (const [name, ms] of index.toolUses) if (ms.some(hit)) return { kind: 'tool', name };
  for (const inc of index.includes) if (hit(inc.mention)) return { kind: 'include', files: inc.targets };
  // The `name` key of a tool, or anywhere in a $ref value.
  const spot = spotAt(source.doc, offset);
  if (spot?.path[0] === 'tools' && spot.path[2] === 'name' && spot.path.length === 3 && typeof spot.scalar?.value === 'string') return { kind: 'tool', name: spot.scalar.value };
  return undefined;
}

export interface At {
  readonly project: Project;
  readonly file: string;
  readonly offset: number;
}

function resolveAt(at: At): { index: SpecIndex; target: Target } | undefined {
  const spec = at.project.specOf(at.file);
  if (spec === undefined) return undefined;
  const source = [spec.root, ...spec.includes].find((s) => resolve(at.project.cwd, s.file) === at.file)!;
  const index = indexSpec(spec, at.project.cwd);
  const target = targetAt(index, at.file, at.offset, source);
  return target === undefined ? undefined : { index, target };
}

export function definition(at: At): Location[] {
  const found = resolveAt(at);
  if (found === undefined) return [];
  const { index, target } = found;
  if (target.kind === 'include') return target.files.map((f) => ({ uri: pathToFileURL(f).href, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }));
  const decl = target.kind === 'def' ? index.defs.get(target.name) : index.tools.get(target.name)?.decl;
  const out = decl === undefined ? [] : [location(decl)];
  if (target.kind === 'tool') out.push(...handlerMethod(at.project, target.name));
  return out;
}

/** The tool's method in the server's handlers file, when that file is there. */
function handlerMethod(project: Project, tool: string): Location[] {
  const spec = project.specs().find((s) => indexSpec(s, project.cwd).tools.has(tool));
  const server = (spec?.root.value as { server?: { name?: unknown } } | undefined)?.server?.name;
  if (typeof server !== 'string') return [];
  const file = project.handlersFile(serverFolder(server));
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const method = toolMethodName(tool);
  const m = new RegExp(`^\\s*(?:async\\s+)?(${method.replace(/\$/g, '\\$')})\\s*[(:<]`, 'm').exec(text) ?? new RegExp(`\\b${camelCase(tool)}\\b`).exec(text);
  if (m === null) return [];
  const offset = m.index + m[0].indexOf(m[1] ?? m[0]);
  const before = text.slice(0, offset).split('\n');
  const line = before.length - 1;
  const character = before[before.length - 1]!.length;
  return [{ uri: pathToFileURL(file).href, range: { start: { line, character }, end: { line, character: character + method.length } } }];
}

function mentionsOf(index: SpecIndex, target: Target): Mention[] {
  if (target.kind === 'def') return [...(index.defs.has(target.name) ? [index.defs.get(target.name)!] : []), ...(index.defUses.get(target.name) ?? [])];
  if (target.kind === 'tool') return [...(index.tools.has(target.name) ? [index.tools.get(target.name)!.decl] : []), ...(index.toolUses.get(target.name) ?? [])];
  return [];
}

export function references(at: At, includeDeclaration: boolean): Location[] {
  const found = resolveAt(at);
  if (found === undefined) return [];
  const all = mentionsOf(found.index, found.target);
  const decl = found.target.kind === 'def' ? found.index.defs.get(found.target.name) : found.target.kind === 'tool' ? found.index.tools.get(found.target.name)?.decl : undefined;
  return all.filter((m) => includeDeclaration || m !== decl).map(location);
}

/** Rename a tool or a `$defs` entry: its declaration and every place that names it, in every file of the spec. */
export function rename(at: At, newName: string): WorkspaceEdit | undefined {
  const found = resolveAt(at);
  if (found === undefined || found.target.kind === 'include') return undefined;
  const changes: Record<string, TextEdit[]> = {};
  for (const m of mentionsOf(found.index, found.target)) {
    const raw = m.source.text.slice(m.start, m.end);
    // A quoted name stays quoted; the `$ref` mentions cover the name alone.
    const quote = /^['"]/.test(raw) ? raw[0]! : '';
    (changes[pathToFileURL(m.file).href] ??= []).push({ range: lspRange(m.source, m.start, m.end), newText: `${quote}${newName}${quote}` });
  }
  return { changes };
}

export function renameRange(at: At): ReturnType<typeof lspRange> | undefined {
  const found = resolveAt(at);
  if (found === undefined || found.target.kind === 'include') return undefined;
  const m = mentionsOf(found.index, found.target).find((x) => x.file === at.file && at.offset >= x.start && at.offset <= x.end);
  return m === undefined ? undefined : lspRange(m.source, m.start, m.end);
}
