// MCPGEN_SPEED_OFF=name,name (or `all`): speed mechanisms turned off for this process, to measure what
// each buys (bench/speed-off.mjs) and to prove the output the same without them
// (test/cli/speed-off.test.ts). docs/layout.md "Speed mechanisms" says what each is. bin/mcpgen.js reads
// the same variable for compile-cache, which it decides before any of this is loaded.

export const SPEED_MECHANISMS = [
  'compile-cache', // Node's own module.enableCompileCache (bin/mcpgen.js)
  'typescript-code-cache', // V8 code caches of TypeScript and ts-morph on Node 20 (emit/typescript-code-cache.ts)
  'typescript-stand-in', // TypeScript stand-in in require's cache with enum copies (emit/typescript-on-demand.ts)
  'scanner-stand-in', // the stand-in's scanner (emit/scanner-stand-in.ts)
  'printer-copy', // @ts-morph/common copied without its lib texts (emit/ts-morph-common-printer.ts)
  'template-cache', // Handlebars templates precompiled into the cache folder (common/templates.ts)
  'yaml-fast-path', // js-yaml reads the value of texts both read alike (parse/fast-value.ts)
  'long-sequences', // a large spec read a list entry at a time (parse/long-sequences.ts)
  'known-values', // a text an importer just wrote is taken as its value (parse/known-values.ts)
  'value-cache', // a large owned file's value kept across processes, keyed on sha256 (parse/value-cache.ts)
  'schema-check-record', // files found clean are not checked again by the next process (validate/rules/schema-check-record.ts)
  'run-record', // a current `generate` answers without the pipeline (write/run-record.ts)
  'watch-caches', // --watch's per-entry caches: entry, schema-check, tool IR, member text (pipeline.ts enableIncremental)
  'breaking-reuse', // `breaking`: the old version's check reuses the new one's per-tool work (pipeline.ts reuseForOldVersion)
] as const;

export type SpeedMechanism = (typeof SPEED_MECHANISMS)[number];

let parsedFrom: string | undefined;
let off = new Set<string>();

/** Whether MCPGEN_SPEED_OFF turns `name` off (read on each call: tests change it within one process). */
export function speedOff(name: SpeedMechanism): boolean {
  const value = process.env.MCPGEN_SPEED_OFF ?? '';
  if (value !== parsedFrom) {
    parsedFrom = value;
    off = new Set(value.split(',').map((s) => s.trim()));
  }
  return off.has('all') || off.has(name);
}
