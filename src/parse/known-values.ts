// A front end that wrote a spec text from a value it holds (`mcpgen import openapi` writes GitHub's 6.6 MB
// owned file from the spec object it built) and then checks the files with the pipeline hands the pair
// here first: parseSource takes the value for that exact text instead of reading it again. Reading it
// again was a third of the import's check (~0.3 s of js-yaml for GitHub's description). The writer's
// texts read back as the value they were written from (test/import/yaml-spec.test.ts checks it through
// this reader); everything else of parseSource still runs on the text (UTF-8, control characters), and
// `yaml` still parses it for the position of any diagnostic (lazySource), so a finding in an imported
// file points at the same file:line:col as before.
//
// Keyed by the text itself: another text (a file changed on disk between the write and the check) is read
// as usual. Holds the one pair until it is forgotten: the importer forgets it after its check.

const known = new Map<string, unknown>();

/** The value `text` was written from, for the check that reads it back. */
export function knowValue(text: string, value: unknown): void {
  known.set(text, value);
}

export function forgetKnownValues(): void {
  known.clear();
}

/** The value handed in for exactly this text, or undefined (read the text). */
export function knownValue(text: string): unknown {
  return known.size === 0 ? undefined : known.get(text);
}
