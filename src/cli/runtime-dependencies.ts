// After generating: do the packages the generated code imports resolve from the output directory? A
// service that has only the generator installed builds nothing that runs, so say exactly what to install.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { generatedRuntimeDependencies, npmInstallLine } from '../common/package-files.js';

/** Packages missing (or, for the runtime, at another version) as seen from `dir`, with the version wanted. */
export function unresolvedRuntimeDependencies(dir: string): { name: string; spec: string; found?: string }[] {
  const { packages, runtimeName, runtimeVersion } = generatedRuntimeDependencies();
  const problems: { name: string; spec: string; found?: string }[] = [];
  for (const [name, spec] of packages) {
    const found = installedVersion(resolve(dir), name);
    if (found === undefined) problems.push({ name, spec });
    else if (name === runtimeName && found !== runtimeVersion) problems.push({ name, spec, found });
  }
  return problems;
}

/** The warning (with the exact `npm install` line), or undefined when everything resolves. */
export function runtimeDependencyWarning(dir: string, shownDir: string): string | undefined {
  const problems = unresolvedRuntimeDependencies(dir);
  if (problems.length === 0) return undefined;
  const what = problems.map((p) => (p.found === undefined ? `${p.name} is not installed` : `${p.name} is ${p.found}, this mcpgen generates for ${p.spec}`)).join('; ');
  const line = npmInstallLine(problems.map((p) => [p.name, p.spec] as const));
  return `mcpgen: warning: the code generated in ${shownDir} will not run: ${what} (seen from ${shownDir}). Install in your project:\n  ${line}\n`;
}

/** Node's lookup for a bare specifier: node_modules/<name> in the directory and each parent. */
function installedVersion(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(file)) {
      try {
        return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? '';
      } catch {
        return '';
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

