import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { FormatsPlugin } from 'ajv-formats';

const addFormats: FormatsPlugin =
  (formatsModule as unknown as { default?: FormatsPlugin }).default ?? (formatsModule as unknown as FormatsPlugin);

export type Validator = (value: unknown) => string | undefined;

/** One ajv per server definition; schemas are compiled once, when the server is created. */
export function createValidatorCompiler(): (schema: Readonly<Record<string, unknown>>) => Validator {
  const ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: false });
  addFormats(ajv);
  return (schema) => {
    const validate: ValidateFunction = ajv.compile(schema);
    return (value) => (validate(value) ? undefined : ajv.errorsText(validate.errors, { dataVar: 'arguments' }));
  };
}
