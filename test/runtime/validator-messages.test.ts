// Validation messages name the bound a value broke, also when the schema reaches it through `$ref`s (an
// imported body `$ref`s a schema whose property `$ref`s one with `minItems: 2`): the model was told
// "must NOT have fewer than undefined items".
import { describe, expect, it } from 'vitest';
import { createValidatorCompiler } from '../../packages/runtime/src/server/core/validators.js';

const schema = {
  type: 'object',
  properties: { body: { $ref: '#/$defs/Pet' } },
  $defs: {
    Pet: { type: 'object', properties: { tags: { $ref: '#/$defs/Tags' }, name: { $ref: '#/$defs/Name' } } },
    Tags: { type: 'array', minItems: 2, items: { type: 'string' } },
    Name: { type: 'string', maxLength: 3, pattern: '^[a-z]+$' },
  },
};

describe('validation messages through $ref', () => {
  const validate = createValidatorCompiler()(schema);
  it('minItems behind two $refs', () => {
    expect(validate({ body: { tags: ['a'] } })).toBe('arguments/body/tags must NOT have fewer than 2 items');
  });
  it('maxLength and pattern behind a $ref', () => {
    expect(validate({ body: { name: 'ABCD' } })).toBe('arguments/body/name must NOT have more than 3 characters, arguments/body/name must match pattern "^[a-z]+$"');
  });
});
