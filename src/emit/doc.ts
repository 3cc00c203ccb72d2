/** Spec text for a JSDoc block: a star-slash would end the comment early, so it is broken up; control chars dropped. */
export function docText(text: string): string {
  return text
    .replace(/\*\//g, '*\\/')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u2028\u2029]/g, '\n')
    .trim();
}

/** The docs array ts-morph takes; empty when there is nothing to say. */
export function docs(...parts: (string | undefined)[]): { description: string }[] {
  const text = parts.filter((p): p is string => p !== undefined && p.trim() !== '').map(docText).join('\n\n');
  return text === '' ? [] : [{ description: text }];
}

/** A TypeScript string literal for any spec string (escapes quotes, backslashes, newlines, U+2028/9). */
export function literal(value: string): string {
  return JSON.stringify(value).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** A JSDoc block as statement text (for declarations printed as text), or '' when there is nothing to say. */
export function jsdoc(...parts: (string | undefined)[]): string {
  const d = docs(...parts)[0];
  if (d === undefined) return '';
  const lines = d.description.split('\n');
  return lines.length === 1 ? `/** ${lines[0]} */\n` : `/**\n${lines.map((l) => (l === '' ? ' *' : ` * ${l}`)).join('\n')}\n */\n`;
}
