// Build step (`npm run build`, after tsc): `mcpgen check` as one CommonJS file, dist/cli/check-bundle.cjs,
// which bin/mcpgen.js (CommonJS too) requires for `check`. Loading the CLI, the loader, the validators, the
// model builder and `yaml` as some 100 ES modules cost Node 20 more than checking a small spec did: one file
// is read and compiled at once, and a run that loads no ES module never starts Node's ES module loader.
// Only what `check` runs is in it: `generate` and `init` stay on the tsc output in dist/ (bin/mcpgen.js
// imports dist/cli/main.js for them), and ajv, loaded on first use by validate/rules/json-schema.ts, stays
// a package of its own.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const BUNDLE = 'dist/cli/check-bundle.cjs';

/** Commands other than `check`: main.ts imports them only when they run; bin/mcpgen.js never sends them here. */
const otherCommands = {
  name: 'other-commands',
  setup(b) {
    b.onResolve({ filter: /^\.\/commands\/(generate|init)\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/cli/main.ts'],
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Paths into ajv's runtime (precompiled validators) and the lazily required ajv are resolved at run time.
    external: ['ajv', 'ajv/*', 'ajv-formats'],
    plugins: [otherCommands],
    // The sources locate files next to themselves with import.meta.url (package-files.ts, createRequire):
    // the bundle sits two levels below the package root as they do.
    define: { 'import.meta.url': '__mcpgenModuleUrl' },
    banner: { js: "const __mcpgenModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
    legalComments: 'eof',
    logLevel: 'warning',
  });
}
