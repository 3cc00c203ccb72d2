// The repository root and temporary folders: what most test files need from test/helpers.ts, without
// helpers.ts's imports of the CLI and the whole check pipeline (about 0.2 s of CPU in every file's worker).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

export function tempDir(prefix = 'mcpgen-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
