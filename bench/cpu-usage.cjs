// Preloaded by bench/breaking.mjs (`node --require`): the command's CPU time (user + system, every thread of
// the process) written to BENCH_CPU_FILE at exit. On a shared machine the wall time moves with the load; the
// CPU time much less, so the bench reports both ratios.
'use strict';
process.on('exit', () => {
  const u = process.cpuUsage();
  require('node:fs').writeFileSync(process.env.BENCH_CPU_FILE, String((u.user + u.system) / 1e6));
});
