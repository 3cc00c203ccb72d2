import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { packageFileUrl } from './package-files.js';

const cache = new Map<string, HandlebarsTemplateDelegate>();

// `{{json x}}` writes a JSON literal (for package.json and other JSON templates).
Handlebars.registerHelper('json', (value: unknown) => JSON.stringify(value));

/**
 * Render templates/<name>.hbs with a plain view object. Templates hold prose and boilerplate only;
 * values are escaped by the caller for the target format (YAML/JSON/Markdown), never HTML-escaped.
 */
export function renderTemplate(name: string, view: Readonly<Record<string, unknown>>): string {
  let t = cache.get(name);
  if (t === undefined) {
    t = Handlebars.compile(readFileSync(packageFileUrl(`templates/${name}.hbs`), 'utf8'), { noEscape: true, strict: true });
    cache.set(name, t);
  }
  return t(view);
}
