// The generated sql server, answering with INSTANCE_ID so a test can see which process served a call.
import { join } from 'node:path';
import { runMain } from '@mcpgen/runtime/server';

const { createSqlServer } = await import(join(import.meta.dirname, '../../.tmp/compiled/sql/server.js'));
const id = process.env.INSTANCE_ID ?? 'unknown';
const server = createSqlServer({
  listTables: () => ({ tables: [id] }),
  executeSql: ({ region }) => ({ columns: ['instance', 'region'], rows: [[id, region]], rowCount: 1 }),
});
await runMain(server, process.argv.slice(2));
