// A generated sql server with handlers that misbehave on purpose, as its own process (so a crash shows
// as an exit): query THROW throws, HANG never answers (bounded by the tool timeout), SLOW answers after
// 200 ms (for drain-on-SIGTERM). Prints "listening on URL" like main.js.
import { join } from 'node:path';
import { runMain } from '@mcpgen/runtime/server';

const compiled = join(import.meta.dirname, '../../.tmp/compiled/sql');
const { createSqlServer } = await import(join(compiled, 'server.js'));
const { handlers } = await import(join(compiled, 'handlers.js'));

const server = createSqlServer(
  {
    ...handlers,
    async executeSql(args, ctx) {
      if (args.query === 'THROW') throw new Error('handler exploded');
      if (args.query === 'HANG') return new Promise(() => {});
      if (args.query === 'SLOW') {
        process.stderr.write('slow request started\n');
        await new Promise((r) => setTimeout(r, 200));
        return { columns: ['slept'], rows: [['200ms']], rowCount: 1 };
      }
      return handlers.executeSql(args, ctx);
    },
  },
  { toolTimeoutMs: 300, onHandlerError: () => {} },
);
await runMain(server, process.argv.slice(2), { requestTimeoutMs: 1500, maxBodyBytes: 256 * 1024 });
// The fuzz test asks for the live heap after a full collection (the process runs with --expose-gc).
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  process.stderr.write(`heap-after-gc ${process.memoryUsage().heapUsed}\n`);
});
