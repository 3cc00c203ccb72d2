import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { SourceFile } from '../parse/source.js';
import { readSource } from './spec-files.js';
import type { ProviderTarget } from '@mcpgen/runtime/shared/provider-rules';

export const CONFIG_FILE = 'mcpgen.config.yaml';

export interface Config {
  /** Absolute directory the config's relative paths start from. */
  readonly dir: string;
  readonly specs: readonly string[];
  readonly out: string;
  readonly format?: 'text' | 'json';
  /** Write package.json and tsconfig.json into each server folder (default true). */
  readonly packageFiles: boolean;
  /** Handlers file path relative to `dir`, `{server}` standing for the server name; default inside each server folder. */
  readonly handlers?: string;
  /** `breaking:` settings, as validated by the config schema (read by `mcpgen breaking`). */
  /** `targets:` model providers `mcpgen check` reports against when no `--target` is given. */
  readonly targets?: readonly ProviderTarget[];
  readonly breaking?: { readonly failOn?: readonly string[]; readonly ignore?: readonly { readonly rule: string; readonly reason: string; readonly only?: readonly string[] }[] };
}

export interface ConfigFile {
  readonly path: string;
  readonly source: SourceFile | undefined;
  readonly diagnostics: Diagnostic[];
}

/** The config in `cwd` (or the explicit `--config` path); undefined when there is none. */
export function findConfig(cwd: string, explicit?: string): string | undefined {
  if (explicit !== undefined) return resolve(cwd, explicit);
  const candidate = resolve(cwd, CONFIG_FILE);
  return existsSync(candidate) ? candidate : undefined;
}

export function readConfigFile(path: string, cwd: string): ConfigFile {
  const read = readSource(path, cwd);
  if (read.source === undefined) {
    return { path, source: undefined, diagnostics: [{ code: 'MCPG001', severity: 'error', message: `cannot read config: ${read.error}`, file: path, line: 1, column: 1, path: '$' }] };
  }
  return { path, source: read.source, diagnostics: read.diagnostics };
}

/** Interpret an already validated config file. */
export function toConfig(file: ConfigFile): Config {
  const value = file.source?.value as { specs: string[]; out?: string; format?: 'text' | 'json'; packageFiles?: boolean; handlers?: string; breaking?: Config['breaking']; targets?: ProviderTarget[] };
  return {
    dir: dirname(file.path),
    specs: value.specs,
    out: value.out ?? 'generated',
    ...(value.format ? { format: value.format } : {}),
    packageFiles: value.packageFiles ?? true,
    ...(value.handlers !== undefined ? { handlers: value.handlers } : {}),
    ...(value.breaking !== undefined ? { breaking: value.breaking } : {}),
    ...(value.targets !== undefined ? { targets: value.targets } : {}),
  };
}
