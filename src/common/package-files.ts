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

/** One runtime package of mcpgen and the SDK peers it needs, as name → version spec. */
export interface RuntimeGroup {
  /** e.g. `@mcpgen/runtime` → `0.1.0`, `@modelcontextprotocol/server` → `^2.4.0`. */
  readonly packages: ReadonlyMap<string, string>;
  readonly runtimeName: string;
  readonly runtimeVersion: string;
  /** The runtime's `engines.node`: the Node versions a generated package using it runs on. */
  readonly node: string;
}

/**
 * What generated code loads at run time, in two groups: `server` (server.ts, main.ts: what a deployed
 * server needs, so a service's dependencies) and `client` (client.ts, openai.ts: often only tests use
 * them, so by default a service's dev dependencies, which `npm ci --omit=dev` leaves out).
 */
export interface RuntimeDependencies {
  readonly server: RuntimeGroup;
  readonly client: RuntimeGroup;
}

let runtimeDependencies: RuntimeDependencies | undefined;

/**
 * Read from the runtime packages the generator itself resolves, so generated package.json and README
 * name the runtime this generator was built with (they are released together at the same version)
 * and the SDK range each runtime declares as its peers.
 */
export function generatedRuntimeDependencies(): RuntimeDependencies {
  runtimeDependencies ??= { server: runtimeGroup('@mcpgen/runtime'), client: runtimeGroup('@mcpgen/runtime-client') };
  return runtimeDependencies;
}

function runtimeGroup(name: string): RuntimeGroup {
  const file = createRequire(import.meta.url).resolve(`${name}/package.json`);
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name: string; version: string; engines: { node: string }; peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }> };
  // Optional peers (@redis/client, for scale-out) are installed only by services that use them.
  const required = Object.entries(pkg.peerDependencies ?? {}).filter(([peer]) => pkg.peerDependenciesMeta?.[peer]?.optional !== true);
  const packages = new Map<string, string>([[pkg.name, pkg.version], ...required.sort(([a], [b]) => (a < b ? -1 : 1))]);
  return { packages, runtimeName: pkg.name, runtimeVersion: pkg.version, node: pkg.engines.node };
}

/** `npm install name@spec …`, each word quoted for a POSIX shell when it needs it (`^` does in some shells). */
export function npmInstallLine(packages: Iterable<readonly [string, string]>, dev = false): string {
  return `npm install ${dev ? '--save-dev ' : ''}${[...packages].map(([name, spec]) => shellWord(`${name}@${spec}`)).join(' ')}`;
}

function shellWord(word: string): string {
  return /^[\w@/.:=-]+$/.test(word) ? word : `'${word}'`;
}

/**
 * Where `npm run pack-all -- <repository>` (scripts/pack-all.mjs) puts the three packs, relative to that
 * repository: inside it, so the `file:` specifiers npm writes are relative paths every clone and CI has.
 */
export const VENDOR_DIR = 'vendor/mcpgen';

/** The file `npm pack` writes for a package: `@mcpgen/runtime` 0.1.0 → `mcpgen-runtime-0.1.0.tgz`. */
export function packFileName(name: string, version: string): string {
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}

/**
 * The `npm install` line of a runtime group from the repository's vendored packs (run at its root):
 * mcpgen's package as `./vendor/mcpgen/<pack>`, the SDK from the registry; `before` and `after` are more words.
 */
export function vendoredInstallLine(group: RuntimeGroup, dev = false, around: { readonly before?: readonly string[]; readonly after?: readonly string[] } = {}): string {
  const words = [...group.packages].map(([name, spec]) => (name === group.runtimeName ? vendoredPack(name, spec) : shellWord(`${name}@${spec}`)));
  return `npm install ${dev ? '--save-dev ' : ''}${[...(around.before ?? []), ...words, ...(around.after ?? [])].join(' ')}`;
}

/** A pack in the vendor folder as an install argument: `./vendor/mcpgen/mcpgen-0.1.0.tgz`. */
export function vendoredPack(name: string, version: string): string {
  return `./${VENDOR_DIR}/${packFileName(name, version)}`;
}
