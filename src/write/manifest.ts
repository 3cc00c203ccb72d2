// The manifest: what mcpgen wrote into one package folder (`<out>/<server>/.mcpgen-manifest.json`).
// It is the only thing stale-file removal trusts: a file is removed when a previous run's manifest lists
// it as generated, this run no longer produces it, and its bytes are still the ones mcpgen wrote. Never a
// guess from a banner, so a user's file that happens to start like ours is never touched.
// The format is versioned and holds a content hash per file so later features can build on it (rewrite
// nothing when nothing changed; record inputs → outputs to skip emitting) by adding fields.
import { EnvironmentError } from '../errors.js';

export const MANIFEST_FILE = '.mcpgen-manifest.json';
export const MANIFEST_VERSION = 1;

export interface ManifestEntry {
  /** `scaffold` files (handlers.ts) are written once and then belong to the user: never removed, no hash. */
  readonly kind: 'generated' | 'scaffold';
  /** sha256 of the bytes mcpgen wrote (generated files only). */
  readonly sha256?: string;
}

export interface Manifest {
  readonly version: number;
  readonly server: string;
  /** The root spec file, relative to the project folder (the config's), forward slashes: as banners show it. */
  readonly spec: string;
  /** By path relative to the package folder (forward slashes). */
  readonly files: Readonly<Record<string, ManifestEntry>>;
  /**
   * The handlers file when it lives outside the folder (config `handlers`), relative to the folder. Read
   * only to say when a spec or config change leaves it unused; never written to or removed.
   */
  readonly handlers?: string;
  /** The handler methods the spec had: `generate` prints the stubs of methods a spec gains. */
  readonly methods?: readonly string[];
}

export { sha256 } from '../common/sha256.js';

/** Deterministic text: sorted keys, no timestamps, so `generate --check` can compare it like any file. */
export function renderManifest(m: Manifest): string {
  const files: Record<string, ManifestEntry> = {};
  for (const name of Object.keys(m.files).sort()) files[name] = m.files[name]!;
  const doc = {
    $comment: 'Written by mcpgen: the files it generated in this folder, so later runs remove only their own stale files. Do not edit; commit it with the generated files.',
    version: m.version,
    server: m.server,
    spec: m.spec,
    files,
    ...(m.handlers !== undefined ? { handlers: m.handlers } : {}),
    ...(m.methods !== undefined ? { methods: [...m.methods].sort() } : {}),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/**
 * The manifest in `text`, or undefined when it is not one (unreadable JSON, wrong shape): then nothing is
 * removed as stale, which is the safe side. A newer format is refused rather than misread.
 */
export function parseManifest(text: string, where: string): Manifest | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null) return undefined;
  const { version, server, spec, files, handlers, methods } = doc as Record<string, unknown>;
  if (typeof version !== 'number') return undefined;
  if (version > MANIFEST_VERSION) throw new EnvironmentError(`${where} was written by a newer mcpgen (manifest format ${version}); upgrade mcpgen`);
  if (typeof server !== 'string' || typeof spec !== 'string' || typeof files !== 'object' || files === null) return undefined;
  const entries: Record<string, ManifestEntry> = {};
  for (const [name, entry] of Object.entries(files)) {
    const { kind, sha256: hash } = (entry ?? {}) as Record<string, unknown>;
    if (kind !== 'generated' && kind !== 'scaffold') return undefined;
    if (!isSafeName(name)) return undefined;
    entries[name] = kind === 'generated' && typeof hash === 'string' ? { kind, sha256: hash } : { kind };
  }
  return {
    version,
    server,
    spec,
    files: entries,
    ...(typeof handlers === 'string' ? { handlers } : {}),
    ...(Array.isArray(methods) && methods.every((m) => typeof m === 'string') ? { methods: methods as string[] } : {}),
  };
}

/** A manifest may only name files inside its own folder: an edited `../../src/x.ts` must never be removed. */
function isSafeName(name: string): boolean {
  return name !== '' && !name.startsWith('/') && !/^[a-zA-Z]:/.test(name) && !name.split(/[\\/]/).some((part) => part === '..' || part === '.' || part === '');
}
