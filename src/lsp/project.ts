import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { check, resolveInputs, type CheckResult } from '../pipeline.js';
import type { Config } from '../load/config.js';
import { loadSpec, type LoadedSpec } from '../load/spec-files.js';
import { setOverlay } from '../load/overlay.js';
import { sweepEntryCache } from '../parse/entry-cache.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

/** Folders never searched for specs. */
const SKIP = new Set(['node_modules', '.git', 'dist', 'generated', 'out']);
/** Bounds of the search for root specs (a spec author's repository, not a home folder). */
const MAX_FILES = 5000;
const MAX_DEPTH = 6;

/**
 * What `mcpgen lsp` works on: the folder the editor opened, its mcpgen.config.yaml (specs, provider
 * targets, handlers), the root specs in it (the config's, and every YAML file whose first key is
 * `mcpgen:`), and the texts the editor holds open, which stand in for the files on disk.
 */
export class Project {
  private config: Config | undefined;
  private configDiagnostics: readonly Diagnostic[] = [];
  private roots: string[] = [];
  /** Each root's spec as last read (undefined: it could not be read), until a text changes. */
  private readonly loaded = new Map<string, LoadedSpec | undefined>();
  /** A spec was read since the entry cache was last swept (the server's own reads, with the cache on: server.ts). */
  private readSinceSweep = false;

  constructor(readonly cwd: string) {
    this.findRoots();
  }

  /** Re-reads the config and finds the root specs again (a file was created, deleted or renamed). */
  findRoots(): void {
    const found = new Set<string>();
    this.config = undefined;
    this.configDiagnostics = [];
    try {
      const inputs = resolveInputs([], this.cwd);
      this.config = inputs.config;
      this.configDiagnostics = inputs.diagnostics;
      for (const f of inputs.files) found.add(f);
    } catch {
      // No config, or one naming no file: the specs found below are checked on their own.
    }
    for (const f of yamlFiles(this.cwd)) if (isRootSpec(f)) found.add(f);
    this.roots = [...found].sort();
    this.loaded.clear();
  }

  /** An editor's text for a file (undefined: the file on disk again). */
  setText(absPath: string, text: string | undefined): void {
    setOverlay(absPath, text);
    // The entries the last reads used are what the next read can reuse; an edit with no read between keeps them all.
    if (this.readSinceSweep) sweepEntryCache();
    this.readSinceSweep = false;
    this.loaded.clear();
    if (text !== undefined && !this.roots.includes(absPath) && /^mcpgen\s*:/m.test(text)) this.roots = [...this.roots, absPath].sort();
  }

  /** `check` over every root spec, as `mcpgen check` with the config would run it. */
  check(): CheckResult & { readonly configDiagnostics: readonly Diagnostic[] } {
    const config = this.config;
    const handlersFile = config?.handlers === undefined ? undefined : (server: string) => resolve(config.dir, config.handlers!.replaceAll('{server}', server));
    const result = check(this.roots, this.cwd, config?.dir, handlersFile, config?.targets ?? [], { models: false });
    return { ...result, configDiagnostics: this.configDiagnostics };
  }

  /** Each root spec with its includes, read through the editor's texts. */
  specs(): readonly LoadedSpec[] {
    return this.roots.flatMap((r) => this.load(r) ?? []);
  }

  /** The spec a file belongs to (as its root or an include). A root spec's own file reads no other spec. */
  specOf(absPath: string): LoadedSpec | undefined {
    const own = this.roots.includes(absPath) ? this.load(absPath) : undefined;
    return own ?? this.specs().find((s) => [s.root, ...s.includes].some((f) => resolve(this.cwd, f.file) === absPath));
  }

  private load(root: string): LoadedSpec | undefined {
    if (!this.loaded.has(root)) {
      this.loaded.set(root, loadSpec(root, this.cwd, this.config?.dir).spec);
      this.readSinceSweep = true;
    }
    return this.loaded.get(root);
  }

  /** Where each server's handlers file is (config `handlers`, else generated/<server>/handlers.ts). */
  handlersFile(folder: string): string {
    const c = this.config;
    if (c?.handlers !== undefined) return resolve(c.dir, c.handlers.replaceAll('{server}', folder));
    return resolve(c?.dir ?? this.cwd, c?.out ?? 'generated', folder, 'handlers.ts');
  }
}

function isRootSpec(file: string): boolean {
  try {
    return /^mcpgen\s*:/m.test(readFileSync(file, 'utf8').slice(0, 4096));
  } catch {
    return false;
  }
}

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number): void => {
    if (depth > MAX_DEPTH || out.length >= MAX_FILES) return;
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory() && !SKIP.has(e.name) && !e.name.startsWith('.')) walk(join(d, e.name), depth + 1);
      else if (e.isFile() && /\.ya?ml$/.test(e.name) && e.name !== 'mcpgen.config.yaml') out.push(join(d, e.name));
    }
  };
  walk(dir, 0);
  return out;
}
