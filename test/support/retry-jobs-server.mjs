// The generated jobs server with `render` allowed one re-run when its instance is lost (task.retry), and
// every start of the render handler appended to RUN_LOG as "<INSTANCE_ID>\n", so a test counts the runs.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMcpgenServer, runMain, serverOptionsFromEnv } from '@mcpgen/runtime/server';

const compiled = join(import.meta.dirname, '../../.tmp/compiled/jobs');
const { definition } = await import(join(compiled, 'definition.js'));
const { handlers } = await import(join(compiled, 'handlers.js'));
const id = process.env.INSTANCE_ID ?? 'unknown';
const withRetry = {
  ...definition,
  tools: definition.tools.map((t) => (t.method === 'render' ? { ...t, task: { ...t.task, retry: { max: 1, backoffMs: 100 } } } : t)),
};
const counted = {
  ...handlers,
  render(args, ctx) {
    if (process.env.RUN_LOG) appendFileSync(process.env.RUN_LOG, `${id}\n`);
    return handlers.render(args, ctx);
  },
};
const server = createMcpgenServer(withRetry, counted, { toolTimeoutMs: 60_000, ...(await serverOptionsFromEnv('jobs')) });
await runMain(server, process.argv.slice(2));
