// Build step (`npm run build`, after tsc): `mcpgen check` as one ES module, dist/cli/check-bundle.js, which
// bin/mcpgen.js runs for `check`. Loading the CLI, the loader, the validators, the model builder and `yaml`
// as some 100 separate files cost Node 20 more than checking a small spec did; one file is read and
// compiled at once. Only what `check` runs is in it: `generate` and `init` stay on the tsc output in dist/
// (their modules are left as imports, resolved next to the bundle, and never loaded by `check`), and ajv,
// loaded on first use by validate/rules/json-schema.ts, stays a package of its own.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const BUNDLE = 'dist/cli/check-bundle.js';

/** Commands other than `check`: imported by main.ts only when they run, from the tsc output. */
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
    format: 'esm',
    target: 'node20',
    // Paths into ajv's runtime (precompiled validators) and the lazily required ajv are resolved at run time.
    external: ['ajv', 'ajv/*', 'ajv-formats'],
    plugins: [otherCommands],
    // yaml's CommonJS build calls require(); an ES module has none of its own.
    banner: { js: "import { createRequire as __mcpgenCreateRequire } from 'node:module';\nconst require = __mcpgenCreateRequire(import.meta.url);" },
    legalComments: 'eof',
    logLevel: 'warning',
  });
}
