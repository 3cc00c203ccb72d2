// The TypeScript stand-in (src/emit/typescript-on-demand.ts) and its scanner (scanner-stand-in.ts):
// the scanner finds the same comma position as TypeScript's own for every text ts-morph could hand it
// (each line and run of lines of the committed generated code, and texts made to trip it), without the
// real scanner for simple ones; the stand-in loads the real TypeScript the moment anything else is read;
// and the CLI gives the same files with it, without it (MCPGEN_LAZY_TYPESCRIPT=0) and with a damaged copy.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scannerStandIn, simpleTextEnd } from '../../src/emit/scanner-stand-in.js';
import { installStandIn, keepExports, STAND_IN_ID } from '../../src/emit/typescript-on-demand.js';
import { ROOT, tempDir } from '../helpers.js';

const require = createRequire(join(ROOT, 'package.json'));
const tsFile = createRequire(require.resolve('ts-morph')).resolve('@ts-morph/common/dist/typescript.js');
const ts = require(tsFile) as typeof import('typescript');

interface Scanner {
  setText(t: string | undefined): void;
  scan(): number;
  reScanTemplateToken(tagged: boolean): number;
  getTokenFullStart(): number;
}

/** ts-morph's getAppendCommaPos (ts-morph.js), word for word, over a given scanner. */
function appendCommaPos(scanner: Scanner, text: string): number {
  const K = ts.SyntaxKind;
  scanner.setText(text);
  try {
    let token = scanner.scan();
    if (token === K.EndOfFileToken) return -1;
    const templateStack: number[] = [];
    while (token !== K.EndOfFileToken) {
      switch (token) {
        case K.TemplateHead:
          templateStack.push(token);
          break;
        case K.OpenBraceToken:
          if (templateStack.length > 0) templateStack.push(token);
          break;
        case K.CloseBraceToken:
          if (templateStack.length > 0) {
            if (templateStack.at(-1) === K.TemplateHead) {
              token = scanner.reScanTemplateToken(false);
              if (token === K.TemplateTail) templateStack.pop();
            } else templateStack.pop();
          }
          break;
      }
      token = scanner.scan();
    }
    const pos = scanner.getTokenFullStart();
    return text[pos - 1] === ',' ? -1 : pos;
  } finally {
    scanner.setText(undefined);
  }
}

function generatedTexts(): string[] {
  const texts: string[] = [];
  const dir = join(ROOT, 'generated');
  for (const server of readdirSync(dir)) {
    for (const file of readdirSync(join(dir, server)).filter((f) => f.endsWith('.ts'))) {
      const lines = readFileSync(join(dir, server, file), 'utf8').split('\n');
      for (let i = 0; i < lines.length; i++) for (const n of [1, 2, 5]) texts.push(lines.slice(i, i + n).join('\n'));
    }
  }
  return texts;
}

const TRICKY = [
  '', '   ', '\n\n', 'a', 'a ', 'a,', 'a, ', 'a ,  \n', 'x: string', "x: 'a' | 'b'", "x = 'it''s'", "x = 'a\\'b'  ", 'x = "a\\"b" ',
  "x = 'open", 'x = "open\n"', "x = 'a\\\nb'", "x = 'a\\\r\nb'", 'x = `t${a}`', 'x = `t` ', 'x // c', 'x /* c */', 'a / b', '/re/g',
  '#!shebang\nx', '<<<<<<< HEAD\nx', 'x\n=======\ny', 'é: string', 'x = "é" ', "x = '\u2028'", 'x\u00a0', '\ufeffx', 'x\v\f', '\tx\t',
  "x = { a: 'b', }", 'f(a, b)', 'x?: number,\n', '...rest: unknown[]', "x = '\\\\'", 'x = "\\\\"  ',
];

describe('the scanner stand-in', () => {
  it("finds TypeScript's comma position for every line and run of lines of the generated code, and for tricky texts", () => {
    const real = ts.createScanner(ts.ScriptTarget.Latest, true) as Scanner;
    let made = 0;
    const standIn = scannerStandIn(ts.SyntaxKind, () => {
      made++;
      return ts.createScanner(ts.ScriptTarget.Latest, true);
    }) as Scanner;
    let simple = 0;
    for (const text of [...TRICKY, ...generatedTexts()]) {
      if (simpleTextEnd(text) !== undefined) simple++;
      expect(appendCommaPos(standIn, text), JSON.stringify(text)).toBe(appendCommaPos(real, text));
    }
    expect(simple).toBeGreaterThan(10_000); // most of it never needs TypeScript
    expect(made).toBe(1); // the texts that are not simple went to one real scanner
  });

  it('answers simple texts without TypeScript, and hands a text over to the real scanner mid-scan', () => {
    let made = 0;
    const make = () => {
      made++;
      return ts.createScanner(ts.ScriptTarget.Latest, true);
    };
    const standIn = scannerStandIn(ts.SyntaxKind, make) as Scanner & { getTokenEnd(): number };
    expect(appendCommaPos(standIn, "id: string, kind: 'a' | \"b\"  \n")).toBe(27);
    expect(appendCommaPos(standIn, 'x,  ')).toBe(-1);
    expect(made).toBe(0);
    standIn.setText('alpha beta');
    standIn.scan();
    expect(standIn.getTokenEnd()).toBe(5); // another method: the real scanner, caught up with the call made
    expect(made).toBe(1);
  });
});

describe('the TypeScript stand-in', () => {
  it('copies the enums and version, and loads the real module when anything else is read', () => {
    const Module = module.Module as unknown as { _cache: Record<string, { id: string; exports: unknown } | undefined> };
    const before = Module._cache[tsFile];
    const cacheDir = tempDir('mcpgen-ts-exports-');
    try {
      expect(installStandIn(tsFile, cacheDir, () => ts)).toBe(false); // nothing kept yet
      keepExports(tsFile, cacheDir, ts as unknown as Record<string, unknown>);
      let loads = 0;
      expect(installStandIn(tsFile, cacheDir, () => (loads++, ts))).toBe(true);
      expect(Module._cache[tsFile]?.id).toBe(STAND_IN_ID);
      const standIn = require(tsFile) as typeof ts;
      expect(Object.keys(standIn)).toEqual(Object.keys(ts));
      expect(Object.getPrototypeOf(standIn)).toBe(Object.prototype); // an ordinary object, whatever V8 keeps it as
      expect('a' in standIn || 'b' in standIn).toBe(false);
      expect(standIn.SyntaxKind).toEqual(ts.SyntaxKind);
      expect(standIn.ScriptTarget).toEqual(ts.ScriptTarget);
      expect(standIn.version).toBe(ts.version);
      expect(loads).toBe(0);
      expect(standIn.createSourceFile).toBe(ts.createSourceFile);
      expect(loads).toBe(1);
      expect(standIn.SyntaxKind).toBe(ts.SyntaxKind); // from then on, the real module's
      expect(loads).toBe(1);

      writeFileSync(readdirSync(cacheDir).map((f) => join(cacheDir, f))[0]!, '{"names": 1');
      expect(installStandIn(tsFile, cacheDir, () => ts)).toBe(false); // damaged: the real module, as before
    } finally {
      if (before === undefined) delete Module._cache[tsFile];
      else Module._cache[tsFile] = before;
    }
  });
});

/** A full generate of the weather spec into a new folder; the files, and whether TypeScript was the stand-in. */
function generate(cacheDir: string, env: Record<string, string> = {}) {
  const out = tempDir('mcpgen-ts-on-demand-out-');
  const probe = `data:text/javascript,${encodeURIComponent(`import { createRequire } from 'node:module'; const c = createRequire(${JSON.stringify(join(ROOT, 'package.json'))}).cache; process.on('exit', () => process.stderr.write('typescript: ' + (c[${JSON.stringify(tsFile)}]?.id ?? 'not loaded') + '\\n'));`)}`;
  const r = spawnSync(process.execPath, ['--import', probe, join(ROOT, 'bin/mcpgen.js'), 'generate', join(ROOT, 'specs/weather.yaml'), '--out', out], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, MCPGEN_CACHE_DIR: cacheDir, ...env },
  });
  expect(r.status, r.stderr).toBe(0);
  const dir = join(out, readdirSync(out)[0]!);
  const files = readdirSync(dir).sort().map((f) => `${f}\n${readFileSync(join(dir, f), 'utf8')}`).join('\n');
  return { files, typescript: /typescript: (.*)/.exec(r.stderr)![1] };
}

describe('generate with the TypeScript stand-in', { timeout: 120_000 }, () => {
  it('gives the same files as with the real TypeScript, which the first run and MCPGEN_LAZY_TYPESCRIPT=0 load', () => {
    const cacheDir = tempDir('mcpgen-ts-on-demand-');
    const first = generate(cacheDir);
    expect(first.typescript).toBe(tsFile); // nothing kept yet: the real module, and what the next run needs is kept
    expect(readdirSync(cacheDir).filter((f) => f.startsWith('typescript-exports-'))).toHaveLength(1);
    const second = generate(cacheDir);
    expect(second.typescript).toBe(STAND_IN_ID);
    expect(second.files).toBe(first.files);
    // With the stand-in, @ts-morph/common came from its copy without the lib texts (ts-morph-common-printer.ts).
    expect(readdirSync(cacheDir).filter((f) => f.startsWith('ts-morph-common-printer-'))).toHaveLength(1);
    const eager = generate(cacheDir, { MCPGEN_LAZY_TYPESCRIPT: '0' });
    expect(eager.typescript).toBe(tsFile);
    expect(eager.files).toBe(first.files);
    const kept = join(cacheDir, readdirSync(cacheDir).find((f) => f.startsWith('typescript-exports-'))!);
    writeFileSync(kept, 'not json');
    const damaged = generate(cacheDir);
    expect(damaged.typescript).toBe(tsFile);
    expect(damaged.files).toBe(first.files);
    expect(generate(cacheDir).typescript).toBe(STAND_IN_ID); // kept anew
  });
});
