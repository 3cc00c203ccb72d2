/** Named imports sorted by name (`type X` by X), by code point rather than locale, so output is stable. */
export function sortImports(names: Iterable<string>): string[] {
  const key = (s: string) => s.replace(/^type /, '');
  return [...names].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
