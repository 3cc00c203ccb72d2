// A rate limit as people write it: `<requests>/<duration>`, the duration in seconds or with a unit (`100/60`,
// `100/1m`, `5/1s`, `1000/1h`); 1 to 10^9 requests per 1 s to 24 h. Shared by the spec's `rateLimit` (the
// generator checks it, MCPG150) and the entry point's MCPGEN_RATE_LIMIT variables (the runtime checks them).
const UNIT_SECONDS: Readonly<Record<string, number>> = { '': 1, s: 1, m: 60, h: 3600 };

export interface Rate {
  readonly points: number;
  readonly durationSeconds: number;
}

/** What a rate must be, for messages. */
export const RATE_FORMAT = 'requests/duration, e.g. 100/60, 100/1m; 1 s to 24 h';

/** The rate, or undefined when `value` is not one or out of bounds. */
export function parseRate(value: string): Rate | undefined {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*([smh]?)\s*$/.exec(value);
  if (m === null) return undefined;
  const points = Number(m[1]);
  const durationSeconds = Number(m[2]) * UNIT_SECONDS[m[3]!]!;
  return points >= 1 && points <= 1e9 && durationSeconds >= 1 && durationSeconds <= 86_400 ? { points, durationSeconds } : undefined;
}
