// `task:` on a tool: the shorthand and the object form reach definition.ts with defaults filled in;
// the JSON Schema refuses what the rules never see (unknown support level, a TTL under a second).
import { describe, expect, it } from 'vitest';
import { checkText } from '../helpers.js';

const spec = (task: string) => `mcpgen: 1\nserver: { name: jobs, version: 1.0.0 }\ntools:\n  - name: t\n    task: ${task}\n`;

describe('task: in the spec', () => {
  it('shorthand and object forms build the task model with defaults', () => {
    const short = checkText(spec('required'));
    expect(short.diagnostics).toEqual([]);
    expect(short.models[0]!.tools[0]!.task).toEqual({ support: 'required', ttlMs: 3_600_000, pollIntervalMs: 1_000, beforeTask: [] });
    const full = checkText(spec('{ ttlMs: 60000, pollIntervalMs: 500 }'));
    expect(full.models[0]!.tools[0]!.task).toEqual({ support: 'optional', ttlMs: 60_000, pollIntervalMs: 500, beforeTask: [] });
  });

  it('never (or no task:) means no task', () => {
    expect(checkText(spec('never')).models[0]!.tools[0]!.task).toBeUndefined();
  });

  it('the schema refuses an unknown support level and a TTL under one second', () => {
    expect(checkText(spec('always')).diagnostics.map((d) => d.code)).toContain('MCPG004');
    expect(checkText(spec('{ ttlMs: 10 }')).diagnostics.map((d) => d.code)).toContain('MCPG004');
  });
});
