// Small OpenAPI descriptions the import tests share.

/** One operation whose parameter schema has a pattern that is no regular expression: the import's check refuses it (MCPG019). */
export const BAD_PATTERN_DESCRIPTION = `openapi: 3.0.3
info: { title: Pets, version: '1.0' }
servers: [{ url: 'https://pets.example.com' }]
paths:
  /pets/{id}:
    get:
      operationId: getPet
      parameters:
        - { name: id, in: path, required: true, schema: { type: string, pattern: '[a-z' } }
      responses:
        '200': { description: ok }
`;
