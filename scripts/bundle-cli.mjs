// Build step (`npm run build`, after tsc): the CLI as two CommonJS files that bin/mcpgen.js (CommonJS too)
// requires. Loading the CLI, the loader, the validators, the model builder, the emitters, `yaml` and js-yaml
// (src/parse/fast-value.ts; both bundled, in both bundles, from their ES module builds) as some
// 100 ES modules cost Node 20 more than checking a small spec did, and about 0.08 s of every `generate`:
// one file is read and compiled at once, and a run that loads no ES module never starts Node's ES module
// loader.
// - dist/cli/check-bundle.cjs: only what `check` runs (`generate` and `init` left out): the smaller file
//   keeps `check` of a small spec a few ms faster.
// - dist/cli/cli-bundle.cjs: every command. ts-morph (with TypeScript) and Handlebars' compiler stay packages
//   of their own, loaded on first use: a current `generate` loads neither, and tests can see that it does
//   not; Handlebars' runtime is bundled (handlebarsCompiler below).
// In both, ajv, loaded on first use by validate/rules/json-schema.ts, stays a package of its own.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const CHECK_BUNDLE = 'dist/cli/check-bundle.cjs';
export const CLI_BUNDLE = 'dist/cli/cli-bundle.cjs';
export const LSP_WORKER = 'dist/cli/lsp-worker.cjs';

/** Commands other than `check`: main.ts imports them only when they run; bin/mcpgen.js never sends them to the check bundle. */
const otherCommands = {
  name: 'other-commands',
  setup(b) {
    b.onResolve({ filter: /^\.\/commands\/(generate|init|import|lsp|test)\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};

// `mcpgen lsp` only: vscode-languageserver stays a package of its own, required when that command runs.
const LANGUAGE_SERVER = ['vscode-languageserver', 'vscode-languageserver/*', 'vscode-languageserver-textdocument'];

const common = {
  absWorkingDir: ROOT,
  entryPoints: ['src/cli/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // The sources locate files next to themselves with import.meta.url (package-files.ts, fingerprint.ts,
  // createRequire): the bundles sit two levels below the package root as they do.
  define: { 'import.meta.url': '__mcpgenModuleUrl' },
  banner: { js: "const __mcpgenModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: 'eof',
  logLevel: 'warning',
};

/**
 * Handlebars' compiler stays a package of its own (loaded only to compile a template not yet kept); its
 * runtime, which every full `generate` runs the kept templates with, is bundled: ~20 small files fewer
 * to find, read and compile. (esbuild's `external: ['handlebars']` would take its subpaths out too.)
 */
const handlebarsCompiler = {
  name: 'handlebars-compiler',
  setup(b) {
    b.onResolve({ filter: /^handlebars$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * jsonc-parser's `main` is a UMD build whose modules are required by computed names esbuild cannot follow:
 * its ES module build (`module`) is bundled instead.
 */
const jsoncParser = {
  name: 'jsonc-parser-esm',
  setup(b) {
    b.onResolve({ filter: /^jsonc-parser$/ }, () => ({ path: `${ROOT}node_modules/jsonc-parser/lib/esm/main.js` }));
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await Promise.all([
    // Paths into ajv's runtime (precompiled validators) and the lazily required ajv are resolved at run time.
    build({ ...common, outfile: CHECK_BUNDLE, external: ['ajv', 'ajv/*', 'ajv-formats'], plugins: [otherCommands] }),
    build({ ...common, outfile: CLI_BUNDLE, external: ['ajv', 'ajv/*', 'ajv-formats', 'ts-morph', '@modelcontextprotocol/client', '@modelcontextprotocol/client/*', ...LANGUAGE_SERVER, 'fast-check'], plugins: [handlebarsCompiler, jsoncParser] }),
    // `mcpgen lsp`'s checks run in a worker thread (src/lsp/checker.ts) from this file.
    build({ ...common, entryPoints: ['src/lsp/check-worker.ts'], outfile: LSP_WORKER, external: ['ajv', 'ajv/*', 'ajv-formats', ...LANGUAGE_SERVER] }),
  ]);
}
