// The JSON Schema rule's record of clean checks (src/validate/rules/schema-check-record.ts), kept in
// mcpgen's cache folder from one process to the next (the import's check, then `generate`): a spec's files
// found clean are not checked again while their texts and mcpgen's code are the same; anything else is.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/load/spec-files.js';
import { check } from '../../src/pipeline.js';
import { schemaCheckRecord } from '../../src/validate/rules/schema-check-record.js';
import { tempDir } from '../support/root.js';
import { freshCacheDirPerTest } from '../support/cache-dir.js';

const HEAD = 'mcpgen: 1\nserver: { name: s, version: 1.0.0 }\n';
const CLEAN = `${HEAD}tools:\n  - name: a\n    input: { type: object, properties: { n: { type: integer, minimum: 1 } } }\n`;
// A `required` that names no property: MCPG021, found only by the JSON Schema rule.
const BROKEN = `${HEAD}tools:\n  - name: a\n    input: { type: object, properties: { n: { type: integer } }, required: [m] }\n`;

const cacheDir = freshCacheDirPerTest();

function run(dir: string, text: string) {
  writeFileSync(join(dir, 'spec.yaml'), text);
  return check([join(dir, 'spec.yaml')], dir).diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`);
}

const keys = () => (existsSync(join(cacheDir(), 'schema-checks.json')) ? (JSON.parse(readFileSync(join(cacheDir(), 'schema-checks.json'), 'utf8')) as { keys: string[] }).keys : []);

describe('the record of clean JSON Schema checks', () => {
  it('keeps a clean outcome only; a spec with a finding is reported every time, at its place', () => {
    const dir = tempDir();
    expect(run(dir, BROKEN)).toEqual(['MCPG021@5:77']);
    expect(keys()).toEqual([]);
    expect(run(dir, BROKEN)).toEqual(['MCPG021@5:77']);
    expect(run(dir, CLEAN)).toEqual([]);
    expect(keys()).toHaveLength(1);
    expect(run(dir, CLEAN)).toEqual([]);
    expect(keys()).toHaveLength(1);
    // The clean one's record does not hide a later edit.
    expect(run(dir, BROKEN)).toEqual(['MCPG021@5:77']);
  });

  it('a recorded key is trusted for exactly those texts: the check is skipped (shown with a forged record), any other text is checked', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'spec.yaml'), BROKEN);
    const loaded = loadSpec(join(dir, 'spec.yaml'), dir);
    schemaCheckRecord([loaded.spec!.root])!.save();
    expect(run(dir, BROKEN)).toEqual([]);
    expect(run(dir, `${BROKEN}# an edit\n`)).toEqual(['MCPG021@5:77']);
  });
});
