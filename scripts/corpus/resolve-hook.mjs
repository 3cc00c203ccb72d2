// Loaded by the corpus workers (node --import): dist/ is built for the CLI bundles (scripts/bundle-cli.mjs),
// whose bundler resolves a package subpath without its extension (`handlebars/runtime`); Node's ES module
// loader, which runs dist/ unbundled here, does not. Such a specifier is retried with `.js`.
import { register } from 'node:module';

if (typeof process.env.CORPUS_HOOK_REGISTERED === 'undefined') {
  process.env.CORPUS_HOOK_REGISTERED = '1';
  register(import.meta.url);
}

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (e) {
    if (e?.code !== 'ERR_MODULE_NOT_FOUND' || /^[./]|\.js$/.test(specifier)) throw e;
    return next(`${specifier}.js`, context);
  }
}
