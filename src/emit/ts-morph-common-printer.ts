// @ts-morph/common is 3 MB of JavaScript, 2.9 MB of which are the lib .d.ts texts ts-morph's in-memory
// file systems read (getLibFiles): with TypeScript a stand-in (typescript-on-demand.ts), reading,
// compiling and keeping those strings was about 25 ms of a 10-tool `generate` on Node 22 and set off a
// full garbage collection, for text the printer never reads.
//
// So, next to the TypeScript stand-in, @ts-morph/common is loaded from a copy of its source made once
// into mcpgen's cache folder: the same text with the lib texts' array literal taken out and getLibFiles
// reading them from the real file the first time it is called. The copy runs as the real file (its
// name, its node_modules paths), so ts-morph's `require('@ts-morph/common')` finds it in require's
// cache. Anything in the source other than what the copy expects, and the real module is loaded.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { requireWithCodeCache, type CachedModule } from '../common/code-cache.js';
import { writeCacheFile } from '../common/cache-dir.js';

const LIB_FILES_START = '\nconst libFiles = [';
const GET_LIB_FILES = '\nfunction getLibFiles() {\n    return libFiles;\n}\n';
/** In the copy: the texts from a second instance of the real file, compiled outside require's cache. */
const GET_LIB_FILES_FROM_REAL = `
let libFiles;
function getLibFiles() {
    if (libFiles === undefined) {
        const { Module } = require('node:module');
        const real = new Module(__filename, module);
        real.filename = __filename;
        real.paths = Module._nodeModulePaths(__dirname);
        real._compile(require('node:fs').readFileSync(__filename, 'utf8'), __filename);
        libFiles = real.exports.getLibFiles();
    }
    return libFiles;
}
`;

/**
 * The copy's source, or undefined when `real` is not as expected: one array literal of
 * `{ fileName: "…", text: "…" }` objects named libFiles, read by getLibFiles alone (any other
 * `libFiles` is a local `const libFiles = getLibFiles()` and what follows it).
 */
export function printerSource(real: string): string | undefined {
  const start = real.indexOf(LIB_FILES_START);
  const getter = real.indexOf(GET_LIB_FILES);
  if (start < 0 || getter < start || real.includes(LIB_FILES_START, start + 1) || real.includes(GET_LIB_FILES, getter + 1)) return undefined;
  if (!onlyLibFileEntries(real, start + LIB_FILES_START.length, getter)) return undefined;
  const rest = real.slice(0, start) + real.slice(getter + GET_LIB_FILES.length);
  for (const m of rest.matchAll(/\blibFiles\b/g)) {
    const local = rest.lastIndexOf('const libFiles = getLibFiles();', m.index);
    if (local < 0 || m.index - local > 300) return undefined;
  }
  const copy = real.slice(0, start) + GET_LIB_FILES_FROM_REAL + real.slice(getter + GET_LIB_FILES.length);
  return withLazyPackages(copy) ?? copy;
}

/**
 * The packages @ts-morph/common requires for file globs and browser paths (minimatch, tinyglobby and what
 * they load, path-browserify: ~20 files to find and load, ~5 ms) and node:fs/promises (with the readline
 * and watcher modules Node loads for it; nothing else in a generate needs them), loaded when first used
 * instead of up front; undefined, for the copy to keep them as they are, when used other than as expected.
 */
const LAZY_PACKAGES = [
  { lines: ["var minimatch = require('minimatch');\n", 'var minimatch__namespace = /*#__PURE__*/_interopNamespaceCompat(minimatch);\n'], name: 'minimatch', use: /(?<![\w$.'"])minimatch(?![\w$'"])/g, lazy: "var minimatch__namespace = __mcpgenLazy(() => _interopNamespaceCompat(require('minimatch')));\n" },
  { lines: ["var path$1 = require('path-browserify');\n", 'var path__default = /*#__PURE__*/_interopDefaultCompat(path$1);\n'], name: 'path$1', use: /(?<![\w$.])path\$1(?![\w$])/g, lazy: "var path__default = __mcpgenLazy(() => _interopDefaultCompat(require('path-browserify')));\n" },
  { lines: ["var fsp = require('node:fs/promises');\n", 'var fsp__namespace = /*#__PURE__*/_interopNamespaceCompat(fsp);\n'], name: 'fsp', use: /(?<![\w$.'"])fsp(?![\w$'"])/g, lazy: "var fsp__namespace = __mcpgenLazy(() => _interopNamespaceCompat(require('node:fs/promises')));\n" },
  { lines: ["var tinyglobby = require('tinyglobby');\n"], name: 'tinyglobby', use: /(?<![\w$.'"])tinyglobby(?!\.globSync\(|\.glob\()(?![\w$'"])/g, lazy: "var tinyglobby = __mcpgenLazy(() => require('tinyglobby'));\n" },
] as const;
const LAZY = "function __mcpgenLazy(load) { let m; return new Proxy({}, { get: (_, key) => (m ??= load())[key] }); }\n";

function withLazyPackages(source: string): string | undefined {
  let out = source;
  for (const p of LAZY_PACKAGES) {
    const at = p.lines.map((line) => out.indexOf(`\n${line}`));
    if (at.some((i, n) => i < 0 || out.includes(`\n${p.lines[n]}`, i + 1))) return undefined;
    for (const line of p.lines) out = out.replace(`\n${line}`, '\n');
    if (p.use.test(out)) return undefined; // read other than through the names made lazy
    p.use.lastIndex = 0;
    out = out.replace('\nclass ', `\n${p.lazy}\nclass `);
  }
  return out.replace('\nclass ', `\n${LAZY}\nclass `);
}

/** Whether real[from, to) is `{ fileName: "…", text: "…" }, …];` and nothing else (whitespace aside). */
function onlyLibFileEntries(real: string, from: number, to: number): boolean {
  const head = /\{\s*fileName: "[\w.-]+",\s*text: "/y;
  const tail = /"\s*\}\s*(,\s*|\];)/y;
  let at = from;
  for (;;) {
    head.lastIndex = at;
    if (!head.test(real)) return false;
    // The string literal ends at the first quote not escaped by a backslash.
    let quote = head.lastIndex - 1;
    do {
      quote = real.indexOf('"', quote + 1);
      if (quote < 0 || quote >= to) return false;
    } while (escaped(real, quote));
    tail.lastIndex = quote;
    const end = tail.exec(real);
    if (end === null || tail.lastIndex > to) return false;
    if (end[1]!.startsWith(']')) return tail.lastIndex <= to && real.slice(tail.lastIndex, to).trim() === '';
    at = tail.lastIndex;
  }
}

function escaped(text: string, quote: number): boolean {
  let backslashes = 0;
  while (text[quote - 1 - backslashes] === '\\') backslashes++;
  return backslashes % 2 === 1;
}

/** What the copy is made with, in its name: a copy another mcpgen made differently is not read. */
const COPY_KIND = createHash('sha256')
  .update(JSON.stringify([LIB_FILES_START, GET_LIB_FILES, GET_LIB_FILES_FROM_REAL, LAZY_PACKAGES.map((p) => [p.lines, p.lazy, String(p.use)]), LAZY]))
  .digest('hex')
  .slice(0, 8);

/**
 * Require @ts-morph/common (`commonFile`) from its copy, made now if the cache folder has none, through a
 * V8 code cache; undefined when there can be no copy (the caller loads the real module).
 */
export function requirePrinterCommon(commonFile: string, cacheDir: string): CachedModule | undefined {
  try {
    const stat = statSync(commonFile);
    const copy = join(cacheDir, `ts-morph-common-printer-${COPY_KIND}-${stat.size}-${Math.trunc(stat.mtimeMs)}.cjs`);
    if (!existsSync(copy)) {
      const source = printerSource(readFileSync(commonFile, 'utf8'));
      if (source === undefined) return undefined;
      writeCacheFile(copy, source);
    }
    return requireWithCodeCache(commonFile, cacheDir, `printer-${COPY_KIND}`, copy); // V8 checks a cache against the source's length only
  } catch {
    return undefined;
  }
}
