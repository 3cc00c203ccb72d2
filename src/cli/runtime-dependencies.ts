// After generating: do the packages the generated code imports resolve from the output directory? A
// service that has only the generator installed builds nothing that runs, so say exactly what to install.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { generatedRuntimeDependencies, npmInstallLine, type RuntimeGroup } from '../common/package-files.js';

interface Problem {
  readonly name: string;
  readonly spec: string;
  readonly found?: string;
}

/** Packages of one group missing (or, for the runtime, at another version) as seen from `dir`, with the version wanted. */
function unresolved(dir: string, group: RuntimeGroup): Problem[] {
  const problems: Problem[] = [];
  for (const [name, spec] of group.packages) {
    const found = installedVersion(resolve(dir), name);
    if (found === undefined) problems.push({ name, spec });
    else if (name === group.runtimeName && found !== group.runtimeVersion) problems.push({ name, spec, found });
  }
  return problems;
}

/** Server packages (server.ts, main.ts) and client packages (client.ts, openai.ts) that do not resolve from `dir`. */
export function unresolvedRuntimeDependencies(dir: string): { server: Problem[]; client: Problem[] } {
  const { server, client } = generatedRuntimeDependencies();
  return { server: unresolved(dir, server), client: unresolved(dir, client) };
}

/** The warning (with the exact `npm install` lines), or undefined when everything resolves. */
export function runtimeDependencyWarning(dir: string, shownDir: string): string | undefined {
  const { server, client } = unresolvedRuntimeDependencies(dir);
  const problems = [...server, ...client];
  if (problems.length === 0) return undefined;
  const what = problems.map((p) => (p.found === undefined ? `${p.name} is not installed` : `${p.name} is ${p.found}, this mcpgen generates for ${p.spec}`)).join('; ');
  // The client half goes under devDependencies: a service that deploys only its server leaves it out of production.
  const lines = [
    ...(server.length > 0 ? [npmInstallLine(server.map((p) => [p.name, p.spec] as const))] : []),
    ...(client.length > 0 ? [`${npmInstallLine(client.map((p) => [p.name, p.spec] as const), true)}   # client.ts, openai.ts; a dependency if you ship the client`] : []),
  ];
  return `mcpgen: warning: the code generated in ${shownDir} will not ${server.length > 0 ? 'run' : 'compile'}: ${what} (as resolved from there). Install in your project:\n${lines.map((l) => `  ${l}\n`).join('')}`;
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
