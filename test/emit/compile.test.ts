import { describe, expect, it } from 'vitest';
import { compileResult } from '../support/servers.js';

describe('generated output', () => {
  it('compiles with tsc --strict --noUncheckedIndexedAccess --exactOptionalPropertyTypes as ESM', () => {
    const result = compileResult();
    expect(result.files).toBeGreaterThanOrEqual(4 * 8);
    expect(result.diagnostics).toEqual([]);
  });
});
