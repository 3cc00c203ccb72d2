// The generated sql server counting the calls that reach its handlers: list_tables answers the count in
// `tables`, execute_sql in `rowCount`.
import { join } from 'node:path';
import { runMain } from '@mcpgen/runtime/server';

const { createSqlServer } = await import(join(import.meta.dirname, '../../.tmp/compiled/sql/server.js'));
let lists = 0;
let executes = 0;
const server = createSqlServer({
  listTables: () => ({ tables: [String(++lists)] }),
  executeSql: ({ region }) => ({ columns: ['region'], rows: [[region]], rowCount: ++executes }),
});
await runMain(server, process.argv.slice(2));
