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
    // One message that lists what `task:` takes (issue 47: it was three in JSON Schema's words).
    expect(checkText(spec('always')).diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual(['MCPG006 "tools[0].task" is "always"; allowed: "never", "optional", "required", a mapping']);
    expect(checkText(spec('{ ttlMs: 10 }')).diagnostics.map((d) => d.code)).toContain('MCPG004');
  });

  it('task.retry reaches the model (backoff default 0); the schema refuses a negative or unbounded max', () => {
    const given = checkText(spec('{ retry: { max: 2, backoffMs: 500 } }'));
    expect(given.diagnostics).toEqual([]);
    expect(given.models[0]!.tools[0]!.task?.retry).toEqual({ max: 2, backoffMs: 500 });
    expect(checkText(spec('{ retry: { max: 1 } }')).models[0]!.tools[0]!.task?.retry).toEqual({ max: 1, backoffMs: 0 });
    expect(checkText(spec('{ ttlMs: 60000 }')).models[0]!.tools[0]!.task?.retry).toBeUndefined();
    for (const bad of ['{ retry: { max: -1 } }', '{ retry: { max: 11 } }', '{ retry: { backoffMs: 5 } }', '{ retry: { max: 1, tries: 2 } }']) {
      expect(checkText(spec(bad)).diagnostics.map((d) => d.code), bad).toContain(bad.includes('tries') ? 'MCPG003' : bad.includes('backoffMs: 5 }') ? 'MCPG005' : 'MCPG004');
    }
  });
});
