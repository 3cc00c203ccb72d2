// Spec text in Markdown (the generated README, the editor's hover): prose escaped, names and values as
// code spans, nothing invisible kept raw.

/** Spec text in Markdown: one line, no HTML, no accidental formatting, invisible characters made visible. */
export function markdown(text: string): string {
  return visible(text.replace(/\s+/g, ' ').replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!).replace(/([\\`*_[\]|~])/g, '\\$1').trim());
}

/**
 * Spec text as one Markdown code span (names, URIs, headers): the fence is longer than any run of
 * backticks inside, padded when the text starts or ends with one (CommonMark 6.1). HTML and
 * formatting are literal inside a code span; line breaks and invisible characters are not kept.
 */
export function codeSpan(text: string): string {
  const t = visible(text.replace(/[\r\n]+/g, ' '));
  const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = t.startsWith('`') || t.endsWith('`') || (t.startsWith(' ') && t.endsWith(' ') && t.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

/** Control characters (C0, DEL, C1) and bidi/line-separator controls as visible `\u` escapes. */
export function visible(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** An example's name, description and arguments as Markdown (the values as one-line JSON code spans). */
export function exampleText(e: { readonly name?: string; readonly description?: string; readonly arguments: unknown }): { name?: string; description?: string; arguments: string } {
  return { ...(e.name === undefined ? {} : { name: markdown(e.name) }), ...(e.description === undefined ? {} : { description: markdown(e.description) }), arguments: jsonSpan(e.arguments) };
}

/** A JSON value as one code span (JSON has no line breaks; invisible characters become \u escapes JSON reads back). */
export function jsonSpan(value: unknown): string {
  return codeSpan(JSON.stringify(value));
}
