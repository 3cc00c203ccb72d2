// Arguments the model chose that the request cannot carry as data: refused with a reason the model can act
// on, before anything is sent. A path argument is one segment (RFC 6570 simple expansion), but a segment
// that is `.` or `..` — literally or percent-encoded, which WHATWG URL parsers, HTTP libraries and reverse
// proxies all resolve — would move the call, with the server's credentials, to another endpoint; so would
// an empty one. A header value with CR, LF, NUL or another control character cannot be sent at all.

export class InvalidArgument extends Error {
  constructor(readonly arg: string, reason: string) {
    super(reason);
  }
}

/** The text of a path argument, checked: never empty, never a dot-segment however it is encoded. */
export function pathValue(arg: string, value: string): string {
  if (value === '') throw new InvalidArgument(arg, 'a path parameter cannot be empty (the call would go to another path)');
  if (value.includes('.') || value.includes('%')) {
    const seg = dotSegment(value);
    if (seg !== undefined) throw new InvalidArgument(arg, `${JSON.stringify(clip(value))} holds the dot-segment "${seg}", which URL normalisation resolves, moving the call to another path; pass the identifier itself`);
  }
  return value;
}

/** `.` or `..` as a segment of the value, as written or after up to three percent-decodings (`%2e%2e`, `%252e`). */
function dotSegment(value: string): string | undefined {
  let text = value;
  for (let round = 0; round < 4; round++) {
    for (const piece of text.split(/[/\\]/)) if (piece === '.' || piece === '..') return piece;
    if (!text.includes('%')) return undefined;
    try {
      const next = decodeURIComponent(text);
      if (next === text) return undefined;
      text = next;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Characters node:http and fetch refuse in a header value (RFC 9110 field-value: no CTL but HTAB, bytes ≤ 0xFF). */
const BAD_HEADER_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

export function headerValue(arg: string, value: string): string {
  // Leading and trailing HTTP whitespace (CR and LF included) is trimmed as Headers trims it; inside, it is refused.
  const inner = value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  if (BAD_HEADER_CHAR.test(inner)) {
    const c = BAD_HEADER_CHAR.exec(inner)![0].codePointAt(0)!;
    throw new InvalidArgument(arg, `a header value cannot hold ${NAMES[c] ?? `U+${c.toString(16).toUpperCase().padStart(4, '0')}`} (control characters, line breaks and characters past U+00FF are not allowed); send it without`);
  }
  return value;
}

const NAMES: Readonly<Record<number, string>> = { 0: 'NUL', 10: 'a line feed (LF)', 13: 'a carriage return (CR)' };

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
