// Synthetic specs for benchmarks: N tools with realistic schemas (5-10 properties, nested objects,
// enums, $ref to shared $defs, some x-mcp-header arguments). Deterministic for a given N.
import { stringify } from 'yaml';

export function syntheticSpec(toolCount, name = `synthetic${toolCount}`) {
  const tools = [];
  for (let i = 0; i < toolCount; i++) {
    const props = {
      id: { type: 'string', minLength: 1, description: `Identifier of item ${i}` },
      count: { type: 'integer', minimum: 0, maximum: 1000, default: 10 },
      mode: { type: 'string', enum: ['fast', 'safe', 'thorough'] },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 20 },
      window: { $ref: '#/$defs/TimeWindow' },
      options: { type: 'object', properties: { verbose: { type: 'boolean' }, depth: { type: 'integer', minimum: 1 } }, additionalProperties: false },
    };
    if (i % 3 === 0) props.region = { type: 'string', 'x-mcp-header': 'Region' };
    if (i % 2 === 0) props.note = { type: ['string', 'null'], maxLength: 200 };
    if (i % 5 === 0) props.priority = { type: 'integer', enum: [1, 2, 3] };
    tools.push({
      name: `tool_${String(i).padStart(4, '0')}`,
      title: `Tool ${i}`,
      description: `Synthetic tool number ${i}, for benchmarks.`,
      annotations: { readOnlyHint: i % 2 === 0 },
      input: { type: 'object', properties: props, required: ['id'], additionalProperties: false },
      output: { type: 'object', properties: { ok: { type: 'boolean' }, items: { type: 'array', items: { $ref: '#/$defs/Item' } } }, required: ['ok'] },
    });
  }
  return stringify({
    mcpgen: 1,
    server: { name, version: '1.0.0' },
    $defs: {
      TimeWindow: { type: 'object', properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time' } }, required: ['from'] },
      Item: { type: 'object', properties: { id: { type: 'string' }, score: { type: 'number' } }, required: ['id'] },
    },
    tools,
  });
}
