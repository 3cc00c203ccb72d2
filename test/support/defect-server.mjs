// Generated example servers (compiled by the global setup) with handlers seeded with defects, for
// test/tester/defects.test.ts: `node defect-server.mjs weather|sql [--http --port 0]`.
//   weather get_forecast: no `temperature` (required output) when units is imperial
//   weather get_alerts:   a severity outside the output enum when the state code has a Z; otherwise one
//                         Wind alert for every state (valid, but not what the spec's examples show)
//   weather add:          never answers when a > 100
//   sql list_tables:      throws on an empty region
import { join } from 'node:path';
import { runMain } from '@mcpgen/runtime/server';

const compiled = (pkg) => import(join(import.meta.dirname, `../../.tmp/compiled/${pkg}/server.js`));
const [which, ...rest] = process.argv.slice(2);
let server;
if (which === 'weather') {
  const { createWeatherServer } = await compiled('weather');
  server = createWeatherServer({
    getForecast: ({ city, units = 'metric' }) => (units === 'imperial' ? { city, conditions: 'sunny' } : { city, temperature: 20, conditions: 'sunny' }),
    getAlerts: ({ state }) => ({ alerts: [{ event: 'Wind', severity: state.includes('Z') ? 'catastrophic' : 'minor' }] }),
    add: ({ a, b }) => (a > 100 ? new Promise(() => {}) : { sum: a + b }),
  });
} else {
  const { createSqlServer } = await compiled('sql');
  server = createSqlServer({
    listTables: ({ region }) => {
      if (region === '') throw new TypeError("Cannot read properties of undefined (reading 'tables')");
      return { tables: [`${region}.users`] };
    },
    executeSql: () => ({ columns: [], rows: [], rowCount: 0 }),
  });
}
await runMain(server, rest);
