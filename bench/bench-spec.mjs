// The server benchmark's spec: three measured tools (a validated 6-property echo, a structuredContent
// tool, an x-mcp-header tool) plus padding tools so the server registers 10 or 1,000 in all.
import { stringify } from 'yaml';

export const ECHO_INPUT = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 64 },
    count: { type: 'integer', minimum: 0, maximum: 100 },
    ratio: { type: 'number', minimum: 0, maximum: 1 },
    mode: { type: 'string', enum: ['fast', 'safe'] },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 8 },
    flag: { type: 'boolean' },
  },
  required: ['name', 'count', 'ratio', 'mode', 'tags', 'flag'],
  additionalProperties: false,
};
export const STATS_INPUT = { type: 'object', properties: { values: { type: 'array', items: { type: 'number' } } }, required: ['values'] };
export const STATS_OUTPUT = { type: 'object', properties: { sum: { type: 'number' }, count: { type: 'integer' } }, required: ['sum', 'count'] };
export const REGIONAL_INPUT = { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, key: { type: 'string' } }, required: ['region', 'key'] };

export function benchTools(total) {
  const tools = [
    { name: 'echo', description: 'Echoes its validated arguments.', input: ECHO_INPUT },
    { name: 'stats', description: 'Sums numbers (structuredContent).', input: STATS_INPUT, output: STATS_OUTPUT },
    { name: 'regional', description: 'Looks up a key in a region (x-mcp-header).', input: REGIONAL_INPUT },
  ];
  for (let i = tools.length; i < total; i++) {
    tools.push({
      name: `pad_${String(i).padStart(4, '0')}`,
      description: `Padding tool ${i}.`,
      input: { type: 'object', properties: { id: { type: 'string' }, n: { type: 'integer', minimum: 0 }, when: { type: 'string', format: 'date-time' } }, required: ['id'] },
    });
  }
  return tools;
}

export function benchSpec(total) {
  return stringify({ mcpgen: 1, server: { name: `bench${total}`, version: '1.0.0' }, tools: benchTools(total) });
}
