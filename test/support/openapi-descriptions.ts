// Small OpenAPI descriptions the import tests share.

/**
 * One operation whose parameter schema is no valid JSON Schema (`minLength: -1`), which the import keeps and
 * its check refuses (MCPG019). (A pattern that is no regular expression, and then a schema contradicting
 * itself, used here before, are now repaired by the import with a warning.)
 */
export const INVALID_SCHEMA_DESCRIPTION = `openapi: 3.0.3
info: { title: Pets, version: '1.0' }
servers: [{ url: 'https://pets.example.com' }]
paths:
  /pets/{id}:
    get:
      operationId: getPet
      parameters:
        - { name: id, in: path, required: true, schema: { type: string, minLength: -1 } }
      responses:
        '200': { description: ok }
`;
