// The interop config's global setup for shared-redis.ts: after the run, stops every topology a test file
// started for the run (and, before it, any left over by an earlier run that was cut short).
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED_DIR, type SharedTopology } from './shared-redis.js';

function stopAll(): void {
  let files: string[] = [];
  try {
    files = readdirSync(SHARED_DIR).filter((f) => f.endsWith('.json'));
  } catch {
    return;
  }
  for (const f of files) {
    const t = JSON.parse(readFileSync(join(SHARED_DIR, f), 'utf8')) as SharedTopology;
    for (const pid of t.pids) {
      // Only a redis process: a pid left by a run cut short may belong to another process by now.
      if (!isRedis(pid)) continue;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  rmSync(SHARED_DIR, { recursive: true, force: true });
}

function isRedis(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('redis-');
  } catch {
    return false;
  }
}

export default function setup(): () => void {
  stopAll();
  return stopAll;
}
