// parse/plain-env.ts: yaml parses with process.env a plain copy (yaml reads it once per token), and the
// real one is back afterwards, also when the parse throws.
import { describe, expect, it } from 'vitest';
import { withPlainEnv } from '../../src/parse/plain-env.js';
import { parseSource } from '../../src/parse/source.js';

describe('process.env while yaml parses', () => {
  it('is a plain object with the same variables, and the real one again afterwards', () => {
    const real = process.env;
    process.env.MCPGEN_PLAIN_ENV_PROBE = 'yes';
    try {
      const seen = withPlainEnv(() => ({ env: process.env, probe: process.env.MCPGEN_PLAIN_ENV_PROBE, proto: Object.getPrototypeOf(process.env) as unknown }));
      expect(seen.env).not.toBe(real);
      expect(seen.proto).toBe(Object.prototype);
      expect(seen.probe).toBe('yes');
      expect(process.env).toBe(real);
      expect(() =>
        withPlainEnv(() => {
          throw new Error('parse failed');
        }),
      ).toThrow('parse failed');
      expect(process.env).toBe(real);
      parseSource('x.yaml', new TextEncoder().encode('a: [1, 2]\n'));
      expect(process.env).toBe(real);
    } finally {
      delete process.env.MCPGEN_PLAIN_ENV_PROBE;
    }
  });
});
