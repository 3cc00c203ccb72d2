// Written once by mcpgen from specs/dashboard.yaml as a starting point. This file is yours:
// mcpgen never overwrites it. Regenerating updates server.ts, whose types this file must satisfy.

import type { DashboardHandlers } from './server.js';
import type { ShowForecastOutput } from './types.js';

const CONDITIONS = ['sunny', 'cloudy', 'rain', 'snow', 'storm'] as const;

/** A deterministic stand-in for a weather service, so the example (and its view) runs offline. */
function forecast(city: string, days: number): ShowForecastOutput {
  const seed = [...city].reduce((n, c) => n + c.charCodeAt(0), 0);
  return {
    city,
    days: Array.from({ length: days }, (_, i) => {
      const high = ((seed + i * 7) % 30) - 2;
      return { date: new Date(Date.UTC(2026, 6, 28 + i)).toISOString().slice(0, 10), high, low: high - 4 - ((seed + i) % 5), conditions: CONDITIONS[(seed + i) % CONDITIONS.length]! };
    }),
  };
}

/** Both tools answer structuredContent; hosts pass it to the view in `ui/notifications/tool-result`. */
export const handlers: DashboardHandlers = {
  showForecast({ city, days = 3 }) {
    return forecast(city, days);
  },
  refreshForecast({ city }) {
    return forecast(city, 3);
  },
};
