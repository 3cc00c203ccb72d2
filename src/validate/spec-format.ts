import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diagnosticAt, type JsonPath, type SourceFile } from '../parse/source.js';
import { configSchema, specSchema } from './precompiled-validators.js';
import { cleanUnderDefs } from './rules/schema-check-cache.js';
import { quotedPath, taskHint, unknownKeyHint, withFix } from './teach.js';

const NO_DEFS: ReadonlyMap<string, unknown> = new Map();

/**
 * The packaged schemas, compiled at build time (scripts/precompile-validators.mjs): compiling the spec
 * format's schema took most of a `mcpgen check` run, and loading ajv's compiler the rest.
 */
const PACKAGED: Readonly<Record<string, ValidateFunction>> = {
  'schema/mcpgen.schema.json': specSchema as ValidateFunction,
  'schema/mcpgen.config.schema.json': configSchema as ValidateFunction,
};

function packagedValidator(file: string): ValidateFunction {
  const v = PACKAGED[file];
  if (v === undefined) throw new Error(`no precompiled validator for ${file}`);
  return v;
}

/** Diagnostics for a file against one of the packaged schemas (used for mcpgen.config.yaml). */
export function validateAgainstPackagedSchema(source: SourceFile, file: string): Diagnostic[] {
  const validate = packagedValidator(file);
  if (validate(source.value)) return [];
  return dedupe((validate.errors ?? []).flatMap((e) => toDiagnostics(source, e)));
}

/** Keys only the root file of a server may hold. */
// `apps`: their `html` paths are relative to the root spec, so they are read from there only.
// `overrides`: the team's changes to files it does not own live in its own spec; an include patching
// another include would make the order of the includes matter.
export const ROOT_ONLY = ['server', 'protocol', 'capabilities', 'cache', 'auth', 'include', 'overrides', 'apps', 'skills', 'toolsets', 'discovery'] as const;

export interface FormatResult {
  readonly diagnostics: Diagnostic[];
  /** False when the file is not even a mapping: nothing in it can be checked further. */
  readonly usable: boolean;
  /** Top-level entries with format errors (`"tools/3"`, `"server"`): later rules skip them. */
  readonly broken: ReadonlySet<string>;
}

/** Checks one file against schema/mcpgen.schema.json; every violation becomes a positioned diagnostic. */
export function validateSpecFormat(source: SourceFile, role: 'root' | 'include'): FormatResult {
  const value = source.value;
  if (value === null || value === undefined) {
    const message = role === 'root' ? 'spec file is empty: expected a mapping with `mcpgen: 1` and `server:`' : 'included file is empty';
    return { diagnostics: [diagnosticAt(source, [], 'MCPG004', message)], usable: false, broken: new Set() };
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { diagnostics: [diagnosticAt(source, [], 'MCPG004', `spec file must be a mapping, got ${describe(value)}`)], usable: false, broken: new Set() };
  }
  const validate = packagedValidator('schema/mcpgen.schema.json');
  const out: Diagnostic[] = [];
  const broken = new Set<string>();
  // Pathological nesting makes schema compilers and type checkers crawl; no real spec needs it.
  for (const deep of tooDeep(value)) {
    const entry = typeof deep.path[1] === 'number' ? `${String(deep.path[0])}/${deep.path[1]}` : String(deep.path[0]);
    if (broken.has(entry)) continue; // one report per entry
    broken.add(entry);
    out.push(diagnosticAt(source, deep.path, 'MCPG004', deep.message));
  }
  if (!validate(value)) {
    const { consumed, merged } = oneOfErrors(source, validate.errors ?? []);
    out.push(...merged);
    for (const e of validate.errors ?? []) {
      const path = pointerToPath(e.instancePath);
      // An unknown key leaves the rest of the entry well-typed: the MCP rules still check it, so a
      // typo like `descripton` does not hide the entry's other problems.
      if (e.keyword !== 'additionalProperties') broken.add(typeof path[1] === 'number' ? `${String(path[0])}/${path[1]}` : String(path[0] ?? '$'));
      if (!consumed.has(e)) out.push(...toDiagnostics(source, e));
    }
  }
  const record = value as Record<string, unknown>;
  if (role === 'root') {
    if (record.mcpgen === undefined) out.push(diagnosticAt(source, [], 'MCPG005', 'missing `mcpgen: 1` (the spec format version)'));
    if (record.server === undefined) out.push(diagnosticAt(source, [], 'MCPG005', 'missing required key "server"'));
  } else {
    for (const key of ROOT_ONLY) {
      if (key in record) {
        out.push(diagnosticAt(source, [key], 'MCPG008', `"${key}" belongs in the root spec, not in an included file`, 'key'));
      }
    }
  }
  return { diagnostics: dedupe(out), usable: true, broken };
}

function toDiagnostics(source: SourceFile, e: ErrorObject): Diagnostic[] {
  const path = pointerToPath(e.instancePath);
  const where = path.length === 0 ? 'the spec' : lastName(path);
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String((e.params as { additionalProperty: string }).additionalProperty);
      const allowed = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const taught = unknownKeyHint(source, path, key, allowed);
      return [withFix(diagnosticAt(source, [...path, key], 'MCPG003', `unknown key "${key}" in ${where}${taught.message}`, 'key'), taught.fix)];
    }
    case 'required': {
      const key = String((e.params as { missingProperty: string }).missingProperty);
      return [diagnosticAt(source, path, 'MCPG005', `missing required key "${key}" in ${where}`)];
    }
    case 'type':
      return [diagnosticAt(source, path, 'MCPG004', `${where} must be ${article(String((e.params as { type: string }).type))}, got ${describe(valueAt(source.value, path))}`)];
    case 'const':
    case 'enum': {
      const allowed = e.keyword === 'const' ? [(e.params as { allowedValue: unknown }).allowedValue] : (e.params as { allowedValues: unknown[] }).allowedValues;
      const got = JSON.stringify(valueAt(source.value, path));
      const versionKey = path.join('.') === 'mcpgen' || path.join('.') === 'protocol.version';
      return [
        diagnosticAt(source, path, versionKey ? 'MCPG009' : 'MCPG006', `${where} is ${got}; ${versionKey ? 'supported' : 'allowed'}: ${allowed.map((a) => JSON.stringify(a)).join(', ')}`),
      ];
    }
    case 'propertyNames':
      return []; // reported by the `pattern` error on the name itself
    default: {
      const propertyName = (e as { propertyName?: string }).propertyName;
      if (propertyName !== undefined) {
        return [diagnosticAt(source, [...path, propertyName], 'MCPG004', `key "${propertyName}" in ${where} ${e.message ?? 'is invalid'}`, 'key')];
      }
      return [diagnosticAt(source, path, 'MCPG004', `${where} ${e.message ?? 'is invalid'}`)];
    }
  }
}

/**
 * A value that matches no branch of a `oneOf` (`task: true`) made ajv report each branch's complaint and
 * then "must match exactly one schema in oneOf": three messages in JSON Schema's words for one mistake.
 * Here they become one that lists what the place takes; when an error lies deeper inside the value (a
 * wrong key in a `task:` mapping), that one explains it and the branch complaints are dropped.
 */
function oneOfErrors(source: SourceFile, errors: readonly ErrorObject[]): { consumed: Set<ErrorObject>; merged: Diagnostic[] } {
  const consumed = new Set<ErrorObject>();
  const merged: Diagnostic[] = [];
  const places = new Set(errors.filter((e) => e.keyword === 'oneOf').map((e) => e.instancePath));
  for (const place of places) {
    const group = errors.filter((e) => e.instancePath === place);
    for (const e of group) consumed.add(e);
    if (errors.some((e) => e.instancePath.startsWith(`${place}/`))) continue;
    const path = pointerToPath(place);
    const value = valueAt(source.value, path);
    const taught = taskHint(source, path, value);
    if (taught !== undefined) {
      merged.push(withFix(diagnosticAt(source, path, 'MCPG006', taught.message), taught.fix));
      continue;
    }
    const values = group.flatMap((e) => (e.keyword === 'enum' ? (e.params as { allowedValues: unknown[] }).allowedValues : e.keyword === 'const' ? [(e.params as { allowedValue: unknown }).allowedValue] : []));
    const types = group.flatMap((e) => (e.keyword === 'type' ? String((e.params as { type: string }).type).split(',') : []));
    const allowed = [...values.map((v) => JSON.stringify(v)), ...types.map((t) => (t === 'object' ? 'a mapping' : t === 'array' ? 'a list' : `a ${t}`))];
    merged.push(diagnosticAt(source, path, values.length > 0 ? 'MCPG006' : 'MCPG004', `${quotedPath(path)} is ${JSON.stringify(value)}; allowed: ${allowed.join(', ')}`));
  }
  return { consumed, merged };
}

export const MAX_NESTING = 48;
/** ajv's $ref scan visits every array twice (once as an array, once as an object): 2^depth. */
export const MAX_ARRAY_NESTING = 12;

/**
 * Every place nested deeper than the limits (the walk stops descending there). Depth-first, last child
 * first, reported in reverse; one path array is grown and shrunk on the way (copied only for a finding),
 * so a large spec costs no array per value.
 */
function tooDeep(value: unknown): { path: (string | number)[]; message: string }[] {
  const found: { path: (string | number)[]; message: string }[] = [];
  const path: (string | number)[] = [];
  // An entry of a top-level list (a tool…) found shallow enough stays so wherever it stands (--watch and
  // `mcpgen lsp`: kept by identity while its text is unchanged, parse/entry-cache.ts; and the old version
  // `breaking` reads after the new one: the same objects for unchanged entries), so an edit walks only
  // the entries it changed.
  const shallow = cleanUnderDefs('shallow entries', NO_DEFS);
  const visit = (v: unknown, arrays: number): void => {
    if (typeof v !== 'object' || v === null) return;
    if (path.length === 2) {
      if (shallow.has(v)) return;
      const before = found.length;
      visitNode(v, arrays);
      if (found.length === before) shallow.add(v);
      return;
    }
    visitNode(v, arrays);
  };
  const visitNode = (v: object, arrays: number): void => {
    if (path.length >= MAX_NESTING) found.push({ path: [...path], message: `nesting deeper than ${MAX_NESTING} levels is not supported` });
    else if (Array.isArray(v)) {
      if (arrays >= MAX_ARRAY_NESTING) found.push({ path: [...path], message: `lists nested deeper than ${MAX_ARRAY_NESTING} levels are not supported` });
      else {
        for (let i = v.length - 1; i >= 0; i--) {
          path.push(i);
          // The spec's own top-level lists (tools:, resources:, …; path [key, index] here) are not value nesting.
          visit(v[i], path.length === 2 ? arrays : arrays + 1);
          path.pop();
        }
      }
    } else {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        path.push(entries[i]![0]);
        visit(entries[i]![1], arrays);
        path.pop();
      }
    }
  };
  visit(value, 0);
  return found.reverse();
}

function dedupe(ds: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return ds.filter((d) => {
    const k = `${d.code}|${d.line}|${d.column}|${d.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

function lastName(path: JsonPath): string {
  const parts = path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
  return `"${parts.replace(/^\./, '')}"`;
}

function valueAt(root: unknown, path: JsonPath): unknown {
  let v = root;
  for (const seg of path) v = (v as Record<string | number, unknown> | undefined)?.[seg];
  return v;
}

function article(type: string): string {
  const t = type.replace(/,/g, ' or ');
  return /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`;
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return `${typeof v} ${String(v)}`;
}
