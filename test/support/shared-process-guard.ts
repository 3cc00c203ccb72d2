// Setup file of vitest.config.ts's `unit-shared` project, whose files run one after another in a worker
// process they share: each file must leave the process as it found it. This fails the file that does not
// (an environment variable set or left removed, the working directory changed, fake timers left on, a
// global replaced, an OpenTelemetry provider left registered, the --watch caches turned on), instead of a
// later file that inherits it; such a file belongs in OWN_PROCESS.
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { objectCachesEnabled } from '../../src/common/context-stores.js';
import { entryCacheEnabled } from '../../src/parse/entry-cache.js';

const GLOBALS = ['fetch', 'Request', 'Response', 'Headers', 'Date', 'setTimeout', 'setInterval', 'clearTimeout', 'queueMicrotask', 'performance'] as const;
/** Where @opentelemetry/api keeps its global providers (one object, its entries added and deleted). */
const OTEL = Symbol.for('opentelemetry.js.api.1');

interface State {
  readonly env: Record<string, string | undefined>;
  readonly cwd: string;
  readonly globals: unknown[];
  readonly otel: Record<string, unknown> | undefined;
}

function state(): State {
  const otel = (globalThis as Record<symbol, Record<string, unknown> | undefined>)[OTEL];
  return { env: { ...process.env }, cwd: process.cwd(), globals: GLOBALS.map((name) => globalThis[name]), otel: otel === undefined ? undefined : { ...otel } };
}

let before: State;

beforeAll(() => {
  before = state();
  // A file before this one would have failed; the flags have no off switch.
  expect(objectCachesEnabled() || entryCacheEnabled(), 'the --watch caches were on before this file').toBe(false);
});

afterAll(() => {
  const after = state();
  expect(after.env, 'process.env after this file (a file that changes it belongs in OWN_PROCESS)').toEqual(before.env);
  expect(after.cwd, 'the working directory after this file').toBe(before.cwd);
  expect(vi.isFakeTimers(), 'fake timers left on by this file').toBe(false);
  GLOBALS.forEach((name, i) => expect(after.globals[i] === before.globals[i], `globalThis.${name} replaced by this file`).toBe(true));
  const otelKeys = (s: State) => Object.entries(s.otel ?? {}).filter(([k]) => k !== 'version');
  expect(otelKeys(after).map(([k, v]) => [k, v === before.otel?.[k]]), 'OpenTelemetry globals registered by this file').toEqual(otelKeys(before).map(([k]) => [k, true]));
  expect(objectCachesEnabled() || entryCacheEnabled(), 'the --watch caches turned on by this file (pipeline.ts enableIncremental)').toBe(false);
});
