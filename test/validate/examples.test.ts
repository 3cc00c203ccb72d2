// `examples:` of tools and prompts (MCPG200–202): each bad example gives exactly one diagnostic, at the
// offending value, with a message that says what to change; good ones give none.
import { describe, expect, it } from 'vitest';
import { checkText } from '../helpers.js';

const HEAD = `mcpgen: 1
server: { name: ex, version: 1.0.0 }
$defs:
  Units: { type: string, enum: [metric, imperial] }
tools:
  - name: get_forecast
    input:
      type: object
      properties:
        city: { type: string, minLength: 1 }
        days: { type: integer, minimum: 1, maximum: 7 }
        units: { $ref: '#/$defs/Units' }
      required: [city]
      additionalProperties: false
    output:
      type: object
      properties:
        city: { type: string }
        conditions: { type: string, enum: [sunny, rain] }
        hourly:
          type: array
          items: { type: object, properties: { hour: { type: integer }, temp: { type: number } }, required: [hour, temp], additionalProperties: false }
        source: { oneOf: [{ type: object, properties: { kind: { const: model }, run: { type: string } }, required: [kind, run] }, { type: object, properties: { kind: { const: station }, id: { type: string } }, required: [kind, id] }] }
      required: [city, conditions]
    examples:
`;
const PROMPT = `prompts:
  - name: greet
    arguments: [{ name: who, required: true }, { name: tone }]
    examples:
`;

/** The spec with these example lines (6 spaces in) under the tool, and these under the prompt. */
function spec(toolExamples: string, promptExamples = '      - arguments: { who: Ada }\n'): string {
  return `${HEAD}${toolExamples}${PROMPT}${promptExamples}`;
}
const LINE = HEAD.split('\n').length; // the first example line's number

const found = (text: string) => checkText(text).diagnostics.map((d) => `${d.code} ${d.line}:${d.column} ${d.message}`);

describe('good examples', () => {
  it('give no diagnostic: all arguments, a result part (fields left out, a oneOf branch without its required keys), an error, no arguments', () => {
    const r = checkText(spec(
      [
        '      - name: paris',
        '        description: Tomorrow in Paris.',
        '        arguments: { city: Paris, days: 2, units: metric }',
        '        result: { city: Paris, hourly: [{ hour: 1 }], source: { kind: station } }',
        '      - arguments: { city: Atlantis }',
        '        isError: true',
        '        result: { anything: [1, 2] }',
        '      - arguments: { city: Oslo }',
        '',
      ].join('\n'),
      '      - name: formal\n        arguments: { who: Ada, tone: formal }\n        messages: [{ role: user, content: { type: text, text: "Good day, Ada." } }]\n',
    ));
    expect(r.diagnostics).toEqual([]);
    expect(r.models).toHaveLength(1);
  });
});

describe('bad examples: one diagnostic each, at the value', () => {
  const cases: { name: string; lines: string; want: string }[] = [
    {
      name: 'an argument out of bounds',
      lines: '      - name: week\n        arguments: { city: Paris, days: 9 }\n',
      want: `MCPG200 ${LINE + 1}:41 example "week" of tool "get_forecast": arguments.days is number 9, but the input schema says it must be <= 7; an example is a call the tool accepts: change the example or the schema`,
    },
    {
      name: 'a required argument missing (at the arguments mapping)',
      lines: '      - arguments: { days: 2 }\n',
      want: `MCPG200 ${LINE}:20 example 1 of tool "get_forecast": arguments lacks "city", which the input schema requires; an example is a call the tool accepts: change the example or the schema`,
    },
    {
      name: 'no arguments at all for a tool that requires one (at the example)',
      lines: '      - name: empty\n',
      want: `MCPG200 ${LINE}:9 example "empty" of tool "get_forecast": arguments lacks "city", which the input schema requires; an example is a call the tool accepts: change the example or the schema`,
    },
    {
      name: 'an argument the closed schema does not have (at the key, with a did-you-mean)',
      lines: '      - arguments: { city: Oslo, unit: metric }\n',
      want: `MCPG200 ${LINE}:34 example 1 of tool "get_forecast": arguments.unit is not a property the input schema allows (allowed: city, days, units); did you mean "units"?; an example is a call the tool accepts: change the example or the schema`,
    },
    {
      name: 'an enum value through a spec $defs $ref',
      lines: '      - arguments: { city: Oslo, units: kelvin }\n',
      want: `MCPG200 ${LINE}:41 example 1 of tool "get_forecast": arguments.units is the string "kelvin", but the input schema says it must be one of "metric", "imperial"; an example is a call the tool accepts: change the example or the schema`,
    },
    {
      name: 'a result value outside the output enum',
      lines: '      - arguments: { city: Oslo }\n        result: { conditions: snowy }\n',
      want: `MCPG201 ${LINE + 1}:31 example 1 of tool "get_forecast": result.conditions is the string "snowy", but the output schema says it must be one of "sunny", "rain"; \`result\` is the part of structuredContent the answer must contain: what it gives must be valid where it stands (leaving properties out is fine)`,
    },
    {
      name: 'a result item with a key its closed schema does not have',
      lines: '      - arguments: { city: Oslo }\n        result: { hourly: [{ hour: 1, tmp: 3 }] }\n',
      want: `MCPG201 ${LINE + 1}:39 example 1 of tool "get_forecast": result.hourly[0].tmp is not a property the output schema allows (allowed: hour, temp); did you mean "temp"?; \`result\` is the part of structuredContent the answer must contain: what it gives must be valid where it stands (leaving properties out is fine)`,
    },
    {
      name: 'a result that matches no oneOf branch even in part',
      lines: '      - arguments: { city: Oslo }\n        result: { source: { kind: satellite } }\n',
      want: `MCPG201 ${LINE + 1}:27 example 1 of tool "get_forecast": result.source is a mapping, but the output schema says it must match one of its alternatives; \`result\` is the part of structuredContent the answer must contain: what it gives must be valid where it stands (leaving properties out is fine)`,
    },
    {
      name: 'two examples with one name (at the second name)',
      lines: '      - name: oslo\n        arguments: { city: Oslo }\n      - name: oslo\n        arguments: { city: Oslo, days: 2 }\n',
      want: `MCPG202 ${LINE + 2}:15 example name "oslo" is used twice in tool "get_forecast" (first at SPEC:${LINE}:15); reports name examples, so give each its own`,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = checkText(spec(c.lines));
      const got = r.diagnostics.map((d) => `${d.code} ${d.line}:${d.column} ${d.message.replace(d.file, 'SPEC')}`);
      expect(got).toEqual([c.want]);
      expect(r.models).toHaveLength(0);
    });
  }

  const promptLine = spec('      - arguments: { city: Oslo }\n').split('\n').length - 1;
  it('a prompt argument it does not declare (at the key)', () => {
    expect(found(spec('      - arguments: { city: Oslo }\n', '      - arguments: { who: Ada, tne: warm }\n'))).toEqual([
      `MCPG200 ${promptLine}:32 example 1 of prompt "greet": argument "tne" is not declared by the prompt (it declares "who", "tone"); did you mean "tone"?`,
    ]);
  });
  it('a required prompt argument left out (at the example when it has no arguments)', () => {
    expect(found(spec('      - arguments: { city: Oslo }\n', '      - name: bare\n'))).toEqual([
      `MCPG200 ${promptLine}:9 example "bare" of prompt "greet": required argument "who" is missing; an example is a call the prompt accepts, so give it a value`,
    ]);
  });
  it('a prompt argument that is not a string is the format\'s own MCPG004', () => {
    expect(found(spec('      - arguments: { city: Oslo }\n', '      - arguments: { who: 3 }\n')).map((d) => d.slice(0, 7))).toEqual(['MCPG004']);
  });
});

describe('the IR', () => {
  it('carries each example in spec order, labelled, with its defaults filled in', () => {
    const r = checkText(spec(
      '      - name: paris\n        description: Tomorrow.\n        arguments: { city: Paris, days: 2 }\n        result: { city: Paris }\n      - arguments: { city: Atlantis }\n        isError: true\n',
      '      - arguments: { who: Ada }\n        messages: [{ role: user }]\n      - name: formal\n        arguments: { who: Ada, tone: formal }\n',
    ));
    const [model] = r.models;
    expect(model!.tools[0]!.examples).toEqual([
      { label: 'example "paris"', name: 'paris', description: 'Tomorrow.', arguments: { city: 'Paris', days: 2 }, result: { city: 'Paris' }, isError: false },
      { label: 'example 2', arguments: { city: 'Atlantis' }, isError: true },
    ]);
    expect(model!.prompts[0]!.examples).toEqual([
      { label: 'example 1', arguments: { who: 'Ada' }, messages: [{ role: 'user' }] },
      { label: 'example "formal"', name: 'formal', arguments: { who: 'Ada', tone: 'formal' } },
    ]);
    expect(Object.isFrozen(model!.tools[0]!.examples[0]!.arguments)).toBe(true);
  });
});
