import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { FormatsPlugin } from 'ajv-formats';

// ajv-formats is CommonJS with a `default` property; under NodeNext the default import is module.exports.
const addFormats: FormatsPlugin =
  (formatsModule as unknown as { default?: FormatsPlugin }).default ?? (formatsModule as unknown as FormatsPlugin);

/** An ajv for JSON Schema 2020-12 with the standard formats; `x-*` keywords are annotations. */
export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, ...options });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'x-mcp-header' });
  // ajv resolves $anchor but strict mode still calls it an unknown keyword; it is core 2020-12.
  ajv.addKeyword({ keyword: '$anchor' });
  return ajv;
}

export type { Ajv2020 };
