// Preloaded with `node --import` by tests: at exit, adds the CommonJS modules the process loaded (one path
// a line) to $MCPGEN_LOADED_MODULES_FILE. ts-morph, TypeScript and handlebars are CommonJS, so a test can
// tell whether a run paid for them. Worker threads run preloads too, so each thread adds its own list as
// it ends; the test removes the file before a run.
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const cache = createRequire(import.meta.url).cache;
const out = process.env.MCPGEN_LOADED_MODULES_FILE;
if (out) process.on('exit', () => appendFileSync(out, `${Object.keys(cache).join('\n')}\n`));
