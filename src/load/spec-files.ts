import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { displayPath } from '../common/portable-path.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diagnosticAt, parseSource, type SourceFile } from '../parse/source.js';
import { readAppFiles, type AppFile } from './app-files.js';
import { overlayText } from './overlay.js';
import { expandGlob, globBase, isGlob, isInside, realPath } from './glob.js';

/** One server spec: its root file and the files it pulls in with `include:`. */
export interface LoadedSpec {
  readonly root: SourceFile;
  readonly includes: readonly SourceFile[];
  /** MCP Apps: the `apps[i].html` files of the root spec, read and size-bounded (app-files.ts). */
  readonly appFiles?: readonly AppFile[];
}

export interface LoadResult {
  readonly spec: LoadedSpec | undefined;
  readonly diagnostics: Diagnostic[];
}

// Here for the modules that have always imported it from the loader; it lives with portablePath.
export { displayPath };

export function readSource(absPath: string, cwd: string): { source?: SourceFile; diagnostics: Diagnostic[]; error?: string } {
  let bytes: Uint8Array;
  const open = overlayText(resolve(absPath));
  try {
    bytes = open !== undefined ? Buffer.from(open) : readFileSync(absPath);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { diagnostics: [], error: code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String(code ?? e) };
  }
  const { source, diagnostics } = parseSource(displayPath(absPath, cwd), bytes);
  return { source, diagnostics };
}

/**
 * The directory a spec's includes must stay inside: the config's directory when the spec lies in it,
 * else the spec's own directory.
 */
export function projectOf(specPath: string, configDir?: string): string {
  return configDir !== undefined && isInside(resolve(specPath), resolve(configDir)) ? resolve(configDir) : dirname(resolve(specPath));
}

/**
 * Reads a root spec and its `include:` files. Includes never leave the spec's project (`configDir`,
 * see projectOf): absolute paths, `../` escapes, globs whose walk starts outside, and symbolic links
 * whose target lies outside are MCPG008 and are never read, so no line of them reaches a diagnostic.
 */
export function loadSpec(absPath: string, cwd: string, configDir?: string): LoadResult {
  const file = displayPath(absPath, cwd);
  const read = readSource(absPath, cwd);
  if (read.source === undefined) {
    return {
      spec: undefined,
      diagnostics: [{ code: 'MCPG001', severity: 'error', message: `cannot read spec: ${read.error}`, file, line: 1, column: 1, path: '$' }],
    };
  }
  const diagnostics = [...read.diagnostics];
  const root = read.source;
  const includes: SourceFile[] = [];
  const seen = new Set([resolve(absPath)]);
  const project = projectOf(absPath, configDir);
  const realProject = realPath(project) ?? project;
  const rule = `includes must stay inside the spec's project ${JSON.stringify(`${resolve(cwd) === project ? '.' : displayPath(project, cwd)}/`)} (the directory of ${configDir !== undefined && project === resolve(configDir) ? 'mcpgen.config.yaml' : 'the root spec'})`;
  const list = (root.value as { include?: unknown } | null | undefined)?.include;
  if (Array.isArray(list)) {
    list.forEach((entry, i) => {
      if (typeof entry !== 'string') return; // the spec-format schema reports the wrong type
      const refuse = (message: string): void => void diagnostics.push(diagnosticAt(root, ['include', i], 'MCPG008', message));
      const quoted = JSON.stringify(entry);
      if (isAbsolute(entry) || /^[A-Za-z]:[\\/]/.test(entry)) return refuse(`include ${quoted} is an absolute path; give it relative to the spec: ${rule}`);
      const dir = dirname(absPath);
      const glob = isGlob(entry);
      if (!isInside(glob ? globBase(entry, dir) : resolve(dir, entry), project)) return refuse(`include ${quoted} reaches outside the project; ${rule}`);
      const matches = glob ? expandGlob(entry, dir, realProject).map((m) => join(dir, m)) : [resolve(dir, entry)];
      if (matches.length === 0) {
        diagnostics.push(diagnosticAt(root, ['include', i], 'MCPG008', `include pattern ${quoted} matches no file`));
      }
      for (const match of matches) {
        const abs = resolve(match);
        // An include naming the spec itself is said, not skipped silently. A glob such as `**/*.yaml` matching
        // the spec is the usual way to write "everything here" and has no way to exclude it, so it stays quiet.
        if (abs === resolve(absPath) && !glob) diagnostics.push(diagnosticAt(root, ['include', i], 'MCPG032', `include ${quoted} is this spec itself; it is skipped`));
        if (seen.has(abs)) continue;
        seen.add(abs);
        const real = realPath(abs);
        if (!isInside(abs, project) || (real !== undefined && !isInside(real, realProject))) {
          refuse(`include ${quoted}${glob ? ` matches ${JSON.stringify(displayPath(abs, cwd))}, which` : ''} is a symbolic link to a file outside the project; ${rule}`);
          continue;
        }
        const inc = readSource(abs, cwd);
        if (inc.source === undefined) {
          diagnostics.push(diagnosticAt(root, ['include', i], 'MCPG008', `cannot include ${quoted}: ${inc.error}`));
          continue;
        }
        diagnostics.push(...inc.diagnostics);
        if (inc.source.value !== undefined) includes.push(inc.source);
      }
    });
  }
  const projectLabel = `the spec's project ${JSON.stringify(`${resolve(cwd) === project ? '.' : displayPath(project, cwd)}/`)}`;
  return { spec: { root, includes, appFiles: readAppFiles(root, absPath, project, projectLabel) }, diagnostics };
}
