// Written once by mcpgen from specs/weather.yaml as a starting point. This file is yours:
// mcpgen never overwrites it. Regenerating updates server.ts, whose types this file must satisfy.

import type { WeatherHandlers } from './server.js';

const CONDITIONS = ['sunny', 'cloudy', 'rain', 'snow', 'storm'] as const;

/** A deterministic stand-in for a weather service, so the example runs offline. */
export const handlers: WeatherHandlers = {
  async getForecast({ city, days = 1, units = 'metric' }, ctx) {
    await ctx.progress(1, 2, `looking up ${city}`);
    const seed = [...city].reduce((n, c) => n + c.charCodeAt(0), 0) + days;
    const celsius = (seed % 35) - 5;
    return {
      city,
      temperature: units === 'metric' ? celsius : Math.round(celsius * 1.8 + 32),
      conditions: CONDITIONS[seed % CONDITIONS.length]!,
      wind: { speed: seed % 20, direction: 'NW' },
    };
  },
  async getAlerts({ state }) {
    return {
      alerts: state === 'CA' ? [{ event: 'Heat Advisory', severity: 'moderate', headline: 'High temperatures expected' }] : [],
    };
  },
  add({ a, b }) {
    return { sum: a + b };
  },
};
