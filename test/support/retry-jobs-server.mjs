// The generated jobs server with `render` allowed re-runs when its instance is lost (task.retry: RETRY_MAX,
// default 1), and every start of the render handler appended to RUN_LOG as "<INSTANCE_ID>\n", so a test
// counts the runs. EVENT_LOG (rolling-restart test): "start|done <tool> <key> <INSTANCE_ID>" per handler start
// and per handler that returned a result (key: render's frames, snapshot's ms); SNAPSHOT_TTL_MS replaces
// snapshot's short TTL (snapshot stays a tool that may not run again).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMcpgenServer, runMain, serverOptionsFromEnv } from '@mcpgen/runtime/server';

const compiled = join(import.meta.dirname, '../../.tmp/compiled/jobs');
const { definition } = await import(join(compiled, 'definition.js'));
const { handlers } = await import(join(compiled, 'handlers.js'));
const id = process.env.INSTANCE_ID ?? 'unknown';
const retry = { max: Number(process.env.RETRY_MAX ?? 1), backoffMs: 100 };
const snapshotTtl = process.env.SNAPSHOT_TTL_MS ? { ttlMs: Number(process.env.SNAPSHOT_TTL_MS) } : {};
const withRetry = {
  ...definition,
  tools: definition.tools.map((t) => (t.method === 'render' ? { ...t, task: { ...t.task, retry } } : t.method === 'snapshot' ? { ...t, task: { ...t.task, ...snapshotTtl } } : t)),
};
const log = (line) => process.env.EVENT_LOG && appendFileSync(process.env.EVENT_LOG, `${line} ${id}\n`);
/** The handler, with its start and its result logged under `key`. */
const logged = (tool, key, handler) => async (args, ctx) => {
  log(`start ${tool} ${key(args)}`);
  const result = await handler(args, ctx);
  log(`done ${tool} ${key(args)}`);
  return result;
};
const counted = {
  ...handlers,
  render: logged('render', (a) => a.frames, (args, ctx) => {
    if (process.env.RUN_LOG) appendFileSync(process.env.RUN_LOG, `${id}\n`);
    return handlers.render(args, ctx);
  }),
  snapshot: logged('snapshot', (a) => a.ms, handlers.snapshot),
};
const server = createMcpgenServer(withRetry, counted, { toolTimeoutMs: 60_000, ...(await serverOptionsFromEnv('jobs')) });
await runMain(server, process.argv.slice(2));
