import { readFileSync } from 'node:fs';

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
