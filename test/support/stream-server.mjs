// The generated `everything` server with handlers that report what disconnecting and slow clients do
// to them, as its own process (started with --expose-gc). Steered by `_meta` keys of each call:
//   test_simple_text  {"test/mode": "wait"}  reports one progress (so the client sees it running), then
//                     waits for ctx.signal to abort; counted in `started` / `aborted`.
//   test_tool_with_progress {"test/frames": N, "test/size": B}  N progress notifications of B bytes,
//                     yielding now and then, stopping when aborted (`progressAborted`).
//   test_trigger_tool_change {"test/events": N}  N tools/list_changed events to listen streams, in batches.
// MAX_LISTEN_STREAMS sets maxListenStreams. SIGUSR2 prints `stats {...}` on stderr: counters and the live heap after a full GC;
// SIGHUP prints `stats {...}` with the counters alone (no GC, heap 0), for a test that waits on a counter.
import { join } from 'node:path';
import { setImmediate as yieldNow } from 'node:timers/promises';
import { runMain } from '@mcpgen/runtime/server';

const compiled = join(import.meta.dirname, '../../.tmp/compiled/everything');
const { createEverythingServer } = await import(join(compiled, 'server.js'));
const { handlers } = await import(join(compiled, 'handlers.js'));

const stats = { started: 0, aborted: 0, progressAborted: 0, progressDone: 0, published: 0 };
const text = (t) => [{ type: 'text', text: t }];

const server = createEverythingServer(
  {
    ...handlers,
    async testSimpleText(args, ctx) {
      if (ctx.meta['test/mode'] !== 'wait') return handlers.testSimpleText(args, ctx);
      stats.started++;
      await ctx.progress(0, 1, 'running');
      await new Promise((resolve) => (ctx.signal.aborted ? resolve() : ctx.signal.addEventListener('abort', resolve, { once: true })));
      stats.aborted++;
      return text('aborted');
    },
    async testToolWithProgress(args, ctx) {
      const frames = Number(ctx.meta['test/frames'] ?? 0);
      if (frames === 0) return handlers.testToolWithProgress(args, ctx);
      const message = 'p'.repeat(Number(ctx.meta['test/size'] ?? 1000));
      for (let i = 1; i <= frames; i++) {
        if (ctx.signal.aborted) {
          stats.progressAborted++;
          return text('aborted');
        }
        await ctx.progress(i, frames, message);
        if (i % 100 === 0) await yieldNow();
      }
      stats.progressDone++;
      return text(`sent ${frames}`);
    },
    async testTriggerToolChange(args, ctx) {
      const events = Number(ctx.meta['test/events'] ?? 0);
      if (events === 0) return handlers.testTriggerToolChange(args, ctx);
      for (let i = 1; i <= events; i++) {
        ctx.notify.toolsChanged();
        stats.published++;
        if (i % 500 === 0) await yieldNow();
      }
      return text(`published ${events}`);
    },
  },
  { onHandlerError: () => {} },
);
await runMain(server, process.argv.slice(2), process.env.MAX_LISTEN_STREAMS ? { maxListenStreams: Number(process.env.MAX_LISTEN_STREAMS) } : {});
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  globalThis.gc?.();
  process.stderr.write(`stats ${JSON.stringify({ ...stats, heap: process.memoryUsage().heapUsed })}\n`);
});
process.on('SIGHUP', () => process.stderr.write(`stats ${JSON.stringify({ ...stats, heap: 0 })}\n`));
