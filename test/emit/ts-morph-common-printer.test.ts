// @ts-morph/common without its lib texts (src/emit/ts-morph-common-printer.ts): the copy exports what the
// real module does, its getLibFiles gives the real texts (from the real file, on first call), a source
// that is not as expected gets no copy, and requirePrinterCommon puts the copy in require's cache under
// the real file's name.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { printerSource, requirePrinterCommon } from '../../src/emit/ts-morph-common-printer.js';
import { ROOT, tempDir } from '../support/root.js';

interface CjsModule {
  exports: Record<string, unknown>;
  filename: string;
  paths: string[];
  _compile(source: string, file: string): void;
}
type ModuleClass = (new (id: string, parent?: unknown) => CjsModule) & {
  _cache: Record<string, CjsModule | undefined>;
  _nodeModulePaths(dir: string): string[];
};
const Module = module.Module as unknown as ModuleClass;

const require = createRequire(join(ROOT, 'package.json'));
const commonFile = createRequire(require.resolve('ts-morph')).resolve('@ts-morph/common');
const realSource = readFileSync(commonFile, 'utf8');
const real = require(commonFile) as Record<string, unknown> & { getLibFiles(): { fileName: string; text: string }[] };

/** `source` run as the real file, outside require's cache. */
function runAsCommon(source: string): CjsModule['exports'] {
  const m = new Module(commonFile, undefined);
  m.filename = commonFile;
  m.paths = Module._nodeModulePaths(dirname(commonFile));
  m._compile(source, commonFile);
  return m.exports;
}

describe('@ts-morph/common without its lib texts', () => {
  it('exports what the real module does, and getLibFiles reads the real texts', () => {
    const source = printerSource(realSource);
    expect(source).toBeDefined();
    expect(source!.length).toBeLessThan(realSource.length / 10);
    const copy = runAsCommon(source!);
    expect(Object.keys(copy)).toEqual(Object.keys(real));
    const libFiles = (copy.getLibFiles as () => unknown)();
    expect(libFiles).toEqual(real.getLibFiles());
    expect(real.getLibFiles().some((f) => f.text.length > 100_000)).toBe(true);
    expect((copy.getLibFiles as () => unknown)()).toBe(libFiles); // read once
  });

  it('loads minimatch, tinyglobby, path-browserify and fs/promises when first used, and they work as in the real module', async () => {
    const source = printerSource(realSource)!;
    expect(source).not.toMatch(/^var (minimatch|path\$1|tinyglobby|fsp) = require\(/m);
    const copy = runAsCommon(source) as { matchGlobs(paths: string[], patterns: string | string[], cwd: string): string[]; FileUtils: unknown };
    const paths = ['/p/a.ts', '/p/b.js', '/p/src/c.ts', '/q/d.ts'];
    expect(copy.matchGlobs(paths, ['**/*.ts', '!src/**'], '/p')).toEqual((real.matchGlobs as typeof copy.matchGlobs)(paths, ['**/*.ts', '!src/**'], '/p'));
    expect(copy.matchGlobs(paths, '**/*.ts', '/p')).toContain('/p/src/c.ts');
    const dir = join(tempDir('mcpgen-common-fsp-'), 'a', 'b');
    const host = new (copy as unknown as { RealFileSystemHost: new () => { mkdir(dir: string): Promise<void> } }).RealFileSystemHost();
    await host.mkdir(dir); // node:fs/promises, loaded now
    expect(statSync(dir).isDirectory()).toBe(true);
    // A use the copy does not expect: the packages are required up front, as in the real module.
    const other = printerSource(`${realSource}\nexports.mm = minimatch;\n`)!;
    expect(other).toMatch(/^var minimatch = require\('minimatch'\);$/m);
    expect(other.length).toBeLessThan(realSource.length / 10); // the lib texts are still left out
  });

  it('makes no copy of a source that is not as expected', () => {
    const start = realSource.indexOf('\nconst libFiles = [');
    expect(printerSource(realSource.replace('\nconst libFiles = [', '\nconst libFiles = [f(), '))).toBeUndefined(); // not only data
    expect(printerSource(`${realSource}\nexports.all = libFiles;\n`)).toBeUndefined(); // read elsewhere
    expect(printerSource(realSource.replace('return libFiles;', 'return libFiles.slice();'))).toBeUndefined();
    expect(printerSource(realSource.slice(0, start) + realSource.slice(start + 1000))).toBeUndefined(); // cut
    expect(printerSource('module.exports = {};')).toBeUndefined();
  });

  it('is made once into the cache folder and put in require’s cache as the real file', () => {
    const cacheDir = tempDir('mcpgen-common-printer-');
    const before = Module._cache[commonFile];
    delete Module._cache[commonFile];
    try {
      const loaded = requirePrinterCommon(commonFile, cacheDir);
      expect(loaded).toBeDefined();
      loaded!.save();
      expect(require(commonFile)).toBe(loaded!.exports);
      expect(Object.keys(loaded!.exports as object)).toEqual(Object.keys(real));
      const copy = readdirSync(cacheDir).find((f) => f.startsWith('ts-morph-common-printer-'));
      expect(copy).toBeDefined();
      const made = statSync(join(cacheDir, copy!)).mtimeMs;
      delete Module._cache[commonFile];
      expect(requirePrinterCommon(commonFile, cacheDir)).toBeDefined();
      expect(statSync(join(cacheDir, copy!)).mtimeMs).toBe(made); // not made again
    } finally {
      if (before === undefined) delete Module._cache[commonFile];
      else Module._cache[commonFile] = before;
    }
  });
});
