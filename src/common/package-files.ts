import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// src/common and dist/common are both two levels below the package root.
const root = new URL('../../', import.meta.url);

export function packageFileUrl(relative: string): URL {
  return new URL(relative, root);
}

export function readPackageJson(relative: string): unknown {
  return JSON.parse(readFileSync(packageFileUrl(relative), 'utf8'));
}

export function mcpgenVersion(): string {
  return (readPackageJson('package.json') as { version: string }).version;
}

/** What generated code loads at run time: the runtime package (this generator's exact build) and its SDK peers. */
export interface RuntimeDependencies {
  /** Package name → version spec, e.g. `@mcpgen/runtime` → `0.1.0`, `@modelcontextprotocol/server` → `^2.4.0`. */
  readonly packages: ReadonlyMap<string, string>;
  readonly runtimeName: string;
  readonly runtimeVersion: string;
}

let runtimeDependencies: RuntimeDependencies | undefined;

/**
 * Read from the runtime package the generator itself depends on, so generated package.json and README
 * name the runtime this generator was built with (the two are released together at the same version)
 * and the SDK range that runtime declares as its peers.
 */
export function generatedRuntimeDependencies(): RuntimeDependencies {
  if (runtimeDependencies !== undefined) return runtimeDependencies;
  const file = createRequire(import.meta.url).resolve('@mcpgen/runtime/package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name: string; version: string; peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }> };
  // Optional peers (@redis/client, for scale-out) are installed only by services that use them.
  const required = Object.entries(pkg.peerDependencies ?? {}).filter(([name]) => pkg.peerDependenciesMeta?.[name]?.optional !== true);
  const packages = new Map<string, string>([[pkg.name, pkg.version], ...required.sort(([a], [b]) => (a < b ? -1 : 1))]);
  runtimeDependencies = { packages, runtimeName: pkg.name, runtimeVersion: pkg.version };
  return runtimeDependencies;
}

/** `npm install name@spec …`, each word quoted for a POSIX shell when it needs it (`^` does in some shells). */
export function npmInstallLine(packages: Iterable<readonly [string, string]>): string {
  return `npm install ${[...packages].map(([name, spec]) => shellWord(`${name}@${spec}`)).join(' ')}`;
}

function shellWord(word: string): string {
  return /^[\w@/.:=-]+$/.test(word) ? word : `'${word}'`;
}
