// Synthetic specs for benchmarks: N tools with realistic schemas (5-10 properties, nested objects,
// enums, $ref to shared $defs, some x-mcp-header arguments). Deterministic for a given N.
import { stringify } from 'yaml';

export function syntheticSpec(toolCount, name = `synthetic${toolCount}`) {
  return stringify({ mcpgen: 1, server: { name, version: '1.0.0' }, $defs: DEFS, tools: syntheticTools(toolCount) });
}

const DEFS = {
  TimeWindow: { type: 'object', properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time' } }, required: ['from'] },
  Item: { type: 'object', properties: { id: { type: 'string' }, score: { type: 'number' } }, required: ['id'] },
};

/**
 * The same N tools as OpenAPI 3.0 for openapi-mcp-generator (which makes one MCP tool per operation): one
 * POST per tool, its input as the JSON request body, its output as the 200 response, $defs as
 * components/schemas. `x-mcp-header` arguments become header parameters (what they are on the wire).
 */
export function syntheticOpenApi(toolCount, name = `synthetic${toolCount}`) {
  const toOpenApi = (schema) => JSON.parse(JSON.stringify(schema).replaceAll('#/$defs/', '#/components/schemas/'), (k, v) => {
    if (v && typeof v === 'object' && Array.isArray(v.type)) {
      const { type, ...rest } = v; // 3.0 has no type lists: nullable
      return { ...rest, type: type.find((t) => t !== 'null'), nullable: true };
    }
    return v;
  });
  const paths = {};
  for (const tool of syntheticTools(toolCount)) {
    const props = { ...tool.input.properties };
    const parameters = [];
    for (const [key, prop] of Object.entries(props)) {
      if (prop['x-mcp-header'] === undefined) continue;
      parameters.push({ name: prop['x-mcp-header'], in: 'header', required: false, schema: { type: prop.type } });
      delete props[key];
    }
    paths[`/tools/${tool.name}`] = {
      post: {
        operationId: tool.name,
        summary: tool.title,
        description: tool.description,
        ...(parameters.length > 0 ? { parameters } : {}),
        requestBody: { required: true, content: { 'application/json': { schema: toOpenApi({ ...tool.input, properties: props }) } } },
        responses: { 200: { description: 'Result', content: { 'application/json': { schema: toOpenApi(tool.output) } } } },
      },
    };
  }
  return stringify({ openapi: '3.0.3', info: { title: name, version: '1.0.0' }, servers: [{ url: 'http://127.0.0.1:9/api' }], paths, components: { schemas: toOpenApi(DEFS) } });
}

function syntheticTools(toolCount) {
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
  return tools;
}
