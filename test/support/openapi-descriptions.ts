// Small OpenAPI descriptions the import tests share.

/**
 * One operation whose parameter schema contradicts itself (an integer that is one of: a string), which the
 * import keeps and its check refuses (MCPG019). (A pattern that is no regular expression, used here before,
 * is now dropped by the import with a warning.)
 */
export const BAD_PATTERN_DESCRIPTION = `openapi: 3.0.3
info: { title: Pets, version: '1.0' }
servers: [{ url: 'https://pets.example.com' }]
paths:
  /pets/{id}:
    get:
      operationId: getPet
      parameters:
        - { name: id, in: path, required: true, schema: { type: integer, oneOf: [{ type: string }] } }
      responses:
        '200': { description: ok }
`;
