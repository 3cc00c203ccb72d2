import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every .yaml/.yml file below `dir` (node_modules left out), or none when `dir` does not exist. */
export function yamlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}
