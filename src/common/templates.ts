// Templates are compiled once and kept: Handlebars turns each into JavaScript (its precompiled form), which
// mcpgen keeps in its cache folder (template-<sha256>.cjs, named by the template's text, Handlebars'
// version and the options), so later runs load only Handlebars' runtime and that small file. Compiling
// README.md.hbs and the others took ~60 ms of every full `generate`, loading the compiler ~30 ms more.
// Without a cache folder, or when the file cannot be written or read, the template is compiled as before.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type HandlebarsFull from 'handlebars';
import Handlebars from 'handlebars/runtime';
import { mcpgenCacheDir, writeCacheFile } from './cache-dir.js';
import { speedOff } from './speed-off.js';
import { packageFileUrl } from './package-files.js';

type Template = (view: Readonly<Record<string, unknown>>) => string;
const cache = new Map<string, Template>();

/** Values are escaped by the caller for the target format (YAML/JSON/Markdown), never HTML-escaped. A new object each time: Handlebars writes into it. */
const options = () => ({ noEscape: true, strict: true });

// `{{json x}}` writes a JSON literal (for package.json and other JSON templates).
const json = (value: unknown) => JSON.stringify(value);
Handlebars.registerHelper('json', json);

/**
 * Render templates/<name>.hbs with a plain view object. Templates hold prose and boilerplate only;
 * values are escaped by the caller for the target format (YAML/JSON/Markdown), never HTML-escaped.
 */
export function renderTemplate(name: string, view: Readonly<Record<string, unknown>>): string {
  let t = cache.get(name);
  if (t === undefined) {
    t = template(readFileSync(packageFileUrl(`templates/${name}.hbs`), 'utf8'));
    cache.set(name, t);
  }
  return t(view);
}

function template(source: string): Template {
  const cacheDir = mcpgenCacheDir(process.cwd());
  if (cacheDir === undefined || speedOff('template-cache')) return compiler().compile(source, options());
  const file = join(cacheDir, `template-${createHash('sha256').update(`${Handlebars.VERSION}\0${JSON.stringify(options())}\0${source}`).digest('hex').slice(0, 32)}.cjs`);
  const load = createRequire(file);
  try {
    return Handlebars.template(load(file) as TemplateSpecification);
  } catch {
    // not kept yet (or unreadable): compile it, keep it, use what was kept
  }
  try {
    writeCacheFile(file, `module.exports = ${compiler().precompile(source, options())};\n`);
    return Handlebars.template(load(file) as TemplateSpecification);
  } catch {
    return compiler().compile(source, options());
  }
}

let full: typeof HandlebarsFull | undefined;

/** Handlebars with its compiler (loaded only when a template is compiled), with the same helpers. */
function compiler(): typeof HandlebarsFull {
  if (full === undefined) {
    full = createRequire(import.meta.url)('handlebars') as typeof HandlebarsFull;
    full.registerHelper('json', json);
  }
  return full;
}
