import { DEFAULT_SCALAR_STYLE_RULES, dump, SCALAR_STYLE, type ScalarLayout, type ScalarStyleRule } from 'js-yaml';

/**
 * Writes a spec object as YAML the same way every time: block style, keys in the order given, no anchors
 * for shared objects (hoisting is explicit, through $defs), no folding of long strings (a multi-line one is
 * a literal block), no timestamps; the header as `#` lines above. Shared by the importers.
 *
 * js-yaml's `dump`, not `yaml`'s Document: GitHub's 6.6 MB owned file took 0.75 s through a Document (a
 * node per value, then a string per node), 0.3 s here. Strings that need quotes take double quotes, or
 * single ones when they hold a `"` (as `yaml` writes them), so that a description reads as written.
 */
export function specToYaml(spec: Record<string, unknown>, header: readonly string[]): string {
  const body = dump(spec, { noRefs: true, lineWidth: -1, indent: 2, quoteStyle: 'double', scalarStyleRules: SCALAR_RULES });
  return `${header.map((line) => `# ${line}`).join('\n')}\n\n${body}`;
}

const allows = (layout: ScalarLayout, style: number): boolean => (layout.allowedStylesMask & (1 << style)) !== 0;

/**
 * js-yaml double-quotes any string with a tab, so one tab in a table made a long multi-line description a
 * single line of `\n`s: a tab stays in a literal block (YAML allows it in block content), only a one-line
 * string or other invisible characters are quoted.
 */
const quoteInvisibles: ScalarStyleRule = (layout) => {
  if (layout.style !== SCALAR_STYLE.PLAIN) return;
  const value = layout.node.value;
  if (/[\x7F-\xA0\u2028\u2029\uFEFF\uFFFE\uFFFF]/.test(value) || (value.includes('\t') && !value.includes('\n'))) layout.style = SCALAR_STYLE.DOUBLE_QUOTED;
};

/** A string that cannot be plain: single quotes when it holds `"` and no `'`, else double. */
const quoteNeeded: ScalarStyleRule = (layout) => {
  if (layout.style !== SCALAR_STYLE.PLAIN || allows(layout, SCALAR_STYLE.PLAIN)) return;
  const value = layout.node.value;
  layout.style = value.includes('"') && !value.includes("'") && allows(layout, SCALAR_STYLE.SINGLE_QUOTED) ? SCALAR_STYLE.SINGLE_QUOTED : SCALAR_STYLE.DOUBLE_QUOTED;
};

const SCALAR_RULES: readonly ScalarStyleRule[] = [
  quoteInvisibles,
  DEFAULT_SCALAR_STYLE_RULES.doubleQuoteWhitespaceOnly,
  DEFAULT_SCALAR_STYLE_RULES.tryLongOrMultilineAsBlock,
  quoteNeeded,
  DEFAULT_SCALAR_STYLE_RULES.fallbackToDoubleQuoted,
];
