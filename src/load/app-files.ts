// MCP Apps views: the HTML file each `apps:` entry names, read here (the load stage) so the validator
// can report on it and the model can embed it; nothing later touches the file system.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { SourceFile } from '../parse/source.js';
import { isInside, realPath } from './glob.js';

/** Largest view HTML: it is embedded in the generated definition.ts and sent whole on every resources/read. */
export const MAX_APP_HTML_BYTES = 1024 * 1024;

export type AppFile =
  | { readonly index: number; readonly text: string; readonly bytes: number }
  | { readonly index: number; readonly problem: string; readonly tooLarge?: number };

/** One entry per `apps[i]` whose `html` is a string; format errors in the rest are the schema's to report. */
export function readAppFiles(root: SourceFile, specPath: string, project: string, projectLabel: string): AppFile[] {
  const apps = (root.value as { apps?: unknown } | null | undefined)?.apps;
  if (!Array.isArray(apps)) return [];
  const out: AppFile[] = [];
  const realProject = realPath(project) ?? project;
  apps.forEach((app: unknown, index) => {
    const html = typeof app === 'object' && app !== null ? (app as { html?: unknown }).html : undefined;
    if (typeof html !== 'string' || html === '') return;
    const quoted = JSON.stringify(html);
    if (isAbsolute(html) || /^[A-Za-z]:[\\/]/.test(html)) return void out.push({ index, problem: `html ${quoted} is an absolute path; give it relative to the spec, inside ${projectLabel}` });
    const abs = resolve(dirname(specPath), html);
    const real = realPath(abs);
    if (!isInside(abs, project) || (real !== undefined && !isInside(real, realProject))) {
      return void out.push({ index, problem: `html ${quoted} reaches outside ${projectLabel}` });
    }
    out.push({ index, ...readBounded(abs, quoted) });
  });
  return out;
}

/** Reads at most the bound (+1 byte to detect overflow): a huge or endless file is never slurped. */
function readBounded(abs: string, quoted: string): { text: string; bytes: number } | { problem: string; tooLarge?: number } {
  let fd: number;
  try {
    // Non-blocking: opening a FIFO for reading would otherwise wait forever for a writer.
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { problem: `html ${quoted}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String(code ?? e)}` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { problem: `html ${quoted} is not a regular file` };
    if (stat.size > MAX_APP_HTML_BYTES) return { problem: `html ${quoted} is ${stat.size} bytes`, tooLarge: stat.size };
    const buf = Buffer.alloc(MAX_APP_HTML_BYTES + 1);
    let n = 0;
    for (let r = -1; r !== 0 && n < buf.length; n += r) r = readSync(fd, buf, n, buf.length - n, null);
    if (n > MAX_APP_HTML_BYTES) return { problem: `html ${quoted} is more than ${MAX_APP_HTML_BYTES} bytes`, tooLarge: n };
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(0, n));
    } catch {
      return { problem: `html ${quoted} is not UTF-8 text` };
    }
    if (text.trim() === '') return { problem: `html ${quoted} is empty` };
    return { text: text.replace(/^\uFEFF/, ''), bytes: n };
  } finally {
    closeSync(fd);
  }
}
