import type { ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv } from '../shared/ajv.js';

export type Validator = (value: unknown) => string | undefined;

/** One ajv per server definition; each schema compiles once (lazily, see create-server.ts). */
export function createValidatorCompiler(): (schema: Readonly<Record<string, unknown>>, dataVar?: string) => Validator {
  const ajv = createAjv({ strict: false, useDefaults: false });
  return (schema, dataVar = 'arguments') => {
    const validate: ValidateFunction = ajv.compile(schema);
    return (value) => {
      try {
        return validate(value) ? undefined : ajv.errorsText(validate.errors, { dataVar });
      } catch (e) {
        // A recursive schema (a tree) recurses as deep as the data, and uniqueItems/const compare deeply:
        // data nested deeper than the stack is refused as invalid, never a crash.
        if (e instanceof RangeError) return `${dataVar} are nested too deeply to validate`;
        throw e;
      }
    };
  };
}
