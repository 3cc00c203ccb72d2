// The tester's inputs: fast-check values from every example spec's tool input schemas are accepted by ajv
// (what is sent as valid is valid), and each mutation of a valid value is refused (what is sent as invalid is).
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check } from '../../src/pipeline.js';
import { mutationsOf } from '../../src/tester/invalid-inputs.js';
import { schemaArbitrary } from '../../src/tester/schema-arbitrary.js';
import { validatorOf } from '../../src/tester/tool-checks.js';
import { ROOT } from '../support/root.js';

const specs = ['weather', 'sql', 'everything', 'files', 'inventory', 'jobs', 'secure', 'dashboard'].map((s) => `${ROOT}/specs/${s}.yaml`);
const tools = check(specs, ROOT).models.flatMap((m) => m.tools);

describe('schema arbitraries', () => {
  it('reads the example specs', () => expect(tools.length).toBeGreaterThan(30));

  // if/then/else and dependent keywords are not aimed at: ajv filters those values, so most must still pass.
  it('generates values each tool input schema accepts, mostly', () => {
    for (const tool of tools) {
      const validate = validatorOf(tool.inputSchema);
      const values = fc.sample(schemaArbitrary(fc, tool.inputSchema), { seed: 1, numRuns: 50 });
      const accepted = values.filter((v) => validate(v) === undefined).length;
      expect(accepted, `${tool.name}: ${values.map((v) => validate(v)).find((p) => p !== undefined)}`).toBeGreaterThanOrEqual(35);
    }
  });

  it('keeps to bounds, enums, patterns, formats and closed objects', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: 3, exclusiveMaximum: 9, multipleOf: 3 },
        s: { type: 'string', minLength: 2, maxLength: 4 },
        e: { enum: ['a', 'b'] },
        p: { type: 'string', pattern: '^[A-Z]{2}-\\d$' },
        when: { type: 'string', format: 'date-time' },
        list: { type: 'array', items: { $ref: '#/$defs/Node' }, maxItems: 2, uniqueItems: true },
      },
      required: ['n', 's', 'e', 'p', 'when', 'list'],
      additionalProperties: false,
      $defs: { Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
    };
    const validate = validatorOf(schema);
    for (const v of fc.sample(schemaArbitrary(fc, schema), { seed: 3, numRuns: 200 })) expect(validate(v)).toBeUndefined();
  });

  it('breaks valid values in ways the schema refuses', () => {
    let broken = 0;
    for (const tool of tools) {
      const validate = validatorOf(tool.inputSchema);
      const base = fc.sample(schemaArbitrary(fc, tool.inputSchema), { seed: 2, numRuns: 20 }).find((v) => validate(v) === undefined) as Record<string, unknown> | undefined;
      if (base === undefined) continue;
      for (const m of mutationsOf(tool.inputSchema as Record<string, unknown>)) {
        // A mutation may happen to land on another branch the schema allows (a type union): the tester skips those.
        if (validate(m.apply(base)) !== undefined) broken++;
        else expect(m.what, tool.name).toMatch(/wrong type|extra/);
      }
    }
    expect(broken).toBeGreaterThan(50);
  });
});
