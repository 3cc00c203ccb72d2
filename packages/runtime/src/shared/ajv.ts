import { Ajv as Ajv07, type Options } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { FormatsPlugin } from 'ajv-formats';
import type { Dialect } from './dialects.js';

// ajv-formats is CommonJS with a `default` property; under NodeNext the default import is module.exports.
const addFormats: FormatsPlugin =
  (formatsModule as unknown as { default?: FormatsPlugin }).default ?? (formatsModule as unknown as FormatsPlugin);

/** An ajv of any of the supported dialects (they share the API the generator uses). */
export type AnyAjv = Ajv2020;

/** The standard formats and mcpgen's annotation keywords, whatever the dialect. */
function prepare<A extends Ajv07 | Ajv2019 | Ajv2020>(ajv: A): A {
  addFormats(ajv as unknown as Parameters<FormatsPlugin>[0]);
  ajv.addKeyword({ keyword: 'x-mcp-header' });
  // ajv resolves $anchor but strict mode still calls it an unknown keyword; it is core 2020-12.
  ajv.addKeyword({ keyword: '$anchor' });
  return ajv;
}

/** An ajv for JSON Schema 2020-12 with the standard formats; `x-*` keywords are annotations. */
export function createAjv(options: Options = {}): Ajv2020 {
  return prepare(new Ajv2020({ allErrors: true, ...options }));
}

/** An ajv for the given dialect: schemas naming draft-07 or 2019-09 are compiled by ajv's own class for it. */
export function createAjvFor(dialect: Dialect, options: Options = {}): AnyAjv {
  if (dialect === '2020-12') return createAjv(options);
  const ajv = dialect === '2019-09' ? new Ajv2019({ allErrors: true, ...options }) : new Ajv07({ allErrors: true, ...options });
  return prepare(ajv) as unknown as AnyAjv;
}

export type { Ajv2020 };
