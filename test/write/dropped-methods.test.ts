// Issue 24 item 5: a renamed or deleted tool leaves a handler method no spec declares; generate names it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers.js';
import { project } from './support.js';

describe('handler methods the spec no longer declares', () => {
  it('are named as a warning after a rename and after a deletion', async () => {
    const dir = project(['weather.yaml']);
    writeFileSync(join(dir, 'mcpgen.config.yaml'), 'specs:\n  - specs/*.yaml\nout: generated\nhandlers: src/mcp/{server}.handlers.ts\n');
    expect((await cli(['generate'], dir)).code).toBe(0);
    const spec = join(dir, 'specs/weather.yaml');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('- name: get_alerts', '- name: fetch_alerts'));
    const renamed = await cli(['generate'], dir);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.stderr).toContain('warning: the weather spec no longer declares getAlerts (tool renamed or deleted); remove it from `handlers` in src/mcp/weather.handlers.ts\n');
    expect(renamed.stderr).toContain('async fetchAlerts(');
    // Deleting a tool: the stale method is still named (the file still has getAlerts and getForecast).
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('- name: get_forecast', '- name: forecast_now'));
    const again = await cli(['generate'], dir);
    expect(again.stderr).toContain('no longer declares getForecast');
  }, 60_000);

  it('says nothing of a method named only in a comment', async () => {
    const dir = project(['weather.yaml']);
    writeFileSync(join(dir, 'mcpgen.config.yaml'), 'specs:\n  - specs/*.yaml\nout: generated\nhandlers: src/mcp/{server}.handlers.ts\n');
    expect((await cli(['generate'], dir)).code).toBe(0);
    const spec = join(dir, 'specs/weather.yaml');
    const handlers = join(dir, 'src/mcp/weather.handlers.ts');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('- name: get_alerts', '- name: fetch_alerts'));
    writeFileSync(handlers, `${readFileSync(handlers, 'utf8').replaceAll('getAlerts', 'fetchAlerts')}\n// getAlerts became fetchAlerts\n/* getAlerts */\n`);
    const renamed = await cli(['generate'], dir);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.stderr).not.toContain('no longer declares');
  }, 60_000);

  it('says nothing when every method is still declared', async () => {
    const dir = project(['weather.yaml']);
    expect((await cli(['generate'], dir)).code).toBe(0);
    expect((await cli(['generate'], dir)).stderr).not.toContain('no longer declares');
  }, 60_000);
});
