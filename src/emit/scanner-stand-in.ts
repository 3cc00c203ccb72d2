// The one TypeScript scanner ts-morph makes when it loads. Its printer runs it over every item of a
// comma-separated list it prints (parameters, type parameters, enum members, …) to find where the item's
// last token ends, before trailing spaces and comments: the comma goes there (ts-morph's
// getAppendCommaPos, which calls setText, scan, reScanTemplateToken and getTokenFullStart, nothing else).
//
// For the items generated code is made of, that end is plain to see, so the stand-in answers without
// TypeScript when the text is simple enough that its scan can only go one way: ASCII, no `/` (so no
// comment, regex or division), no backtick (no template), no conflict-marker run, no `#!` at its start,
// every string literal closed on its line. Then the only trivia are ASCII spaces and line breaks, and
// the last token ends after the last other character outside a string (or at a string's closing quote).
// Any other text, or any other use of the scanner, goes to the real scanner, made on first use (which
// loads the real TypeScript), and the calls already made on the text are replayed on it.

interface TokenKinds {
  readonly EndOfFileToken: number;
  readonly Identifier: number;
}

/** The methods of TypeScript's Scanner that the stand-in answers itself. */
interface ScannerCalls {
  setText(text: string | undefined): void;
  scan(): number;
  getTokenFullStart(): number;
}

/**
 * A scanner for `createScanner(...args)`: answers what getAppendCommaPos asks of simple texts itself,
 * everything else through `makeReal()`'s scanner. `kinds` is TypeScript's SyntaxKind.
 */
export function scannerStandIn(kinds: TokenKinds, makeReal: () => object): object {
  let real: (ScannerCalls & Record<string | symbol, unknown>) | undefined;
  let text: string | undefined;
  /** End of the simple text's last token (-1 when it has none); undefined when the text is not simple. */
  let lastTokenEnd: number | undefined;
  let scans = 0;
  const toReal = () => {
    if (real === undefined) real = makeReal() as ScannerCalls & Record<string | symbol, unknown>;
    if (lastTokenEnd !== undefined) {
      // Catch the real scanner up with this text: the same calls, in the same order.
      real.setText(text);
      for (let i = 0; i < scans; i++) real.scan();
      lastTokenEnd = undefined;
    }
    return real;
  };
  const own: ScannerCalls = {
    setText(t) {
      text = t;
      scans = 0;
      lastTokenEnd = t === undefined ? undefined : simpleTextEnd(t);
      if (lastTokenEnd === undefined) (real ?? (t === undefined ? undefined : toReal()))?.setText(t);
    },
    scan() {
      if (lastTokenEnd === undefined) return toReal().scan();
      scans++;
      // One token standing for all of them (none of the kinds getAppendCommaPos looks for), then the end.
      return scans === 1 && lastTokenEnd > 0 ? kinds.Identifier : kinds.EndOfFileToken;
    },
    getTokenFullStart() {
      if (lastTokenEnd === undefined || scans === 0) return toReal().getTokenFullStart();
      return scans === 1 && lastTokenEnd > 0 ? 0 : lastTokenEnd;
    },
  };
  return new Proxy(own, {
    get(_target, key) {
      if (key === 'setText' || key === 'scan' || key === 'getTokenFullStart') return own[key];
      const r = toReal();
      const value = r[key];
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(r) : value;
    },
  });
}

const CONFLICT_MARKERS = ['<<<<<<<', '=======', '>>>>>>>', '|||||||'];

/**
 * Where the last token of `text` ends (0 when there is none), if `text` is simple (see the top of this
 * file); undefined otherwise.
 */
export function simpleTextEnd(text: string): number | undefined {
  if (text.startsWith('#!') || CONFLICT_MARKERS.some((m) => text.includes(m))) return undefined;
  let end = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80 || c === 0x2f /* / */ || c === 0x60 /* ` */) return undefined;
    if (c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c || c === 0x0a || c === 0x0d) continue;
    if (c === 0x27 /* ' */ || c === 0x22 /* " */) {
      const close = closingQuote(text, i, c);
      if (close === undefined) return undefined;
      i = close;
    }
    end = i + 1;
  }
  return end;
}

/** Index of the quote closing the string literal opened at `open`; undefined when it is not closed on its line. */
function closingQuote(text: string, open: number, quote: number): number | undefined {
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === quote) return i;
    if (c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029) return undefined;
    if (c === 0x5c /* \ */) i++; // the escaped character (a line break after \ continues the literal)
  }
  return undefined;
}
