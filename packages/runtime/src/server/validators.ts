import type { ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv } from '../shared/ajv.js';

export type Validator = (value: unknown) => string | undefined;

/** One ajv per server definition; each schema compiles once (lazily, see create-server.ts). */
export function createValidatorCompiler(): (schema: Readonly<Record<string, unknown>>) => Validator {
  const ajv = createAjv({ strict: false, useDefaults: false });
  return (schema) => {
    const validate: ValidateFunction = ajv.compile(schema);
    return (value) => (validate(value) ? undefined : ajv.errorsText(validate.errors, { dataVar: 'arguments' }));
  };
}
