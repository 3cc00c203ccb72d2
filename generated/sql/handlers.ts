// Written once by mcpgen from specs/sql.yaml as a starting point. This file is yours:
// mcpgen never overwrites it. Regenerating updates server.ts, whose types this file must satisfy.

import { toolError } from '@mcpgen/runtime/server';
import type { SqlHandlers } from './server.js';

const TABLES: Record<string, string[]> = {
  'us-west1': ['customers', 'orders'],
  'us-east1': ['customers', 'invoices'],
  'eu-west1': ['kunden'],
};

/** An in-memory stand-in for a regional database: SELECTs answer, anything else asks first. */
export const handlers: SqlHandlers = {
  async executeSql({ region, query, options }, ctx) {
    const readOnly = /^\s*select\b/i.test(query);
    if (!readOnly && !options?.dryRun) {
      const answer = ctx.elicit.confirm.response;
      if (answer === undefined) return ctx.elicit.confirm.ask();
      if (answer.action !== 'accept' || !answer.content.confirm) return toolError('The query was not confirmed; nothing ran.');
    }
    return { columns: ['region', 'query'], rows: [[region, query]], rowCount: options?.dryRun ? 0 : 1 };
  },
  async listTables({ region }) {
    return { tables: TABLES[region] ?? [] };
  },
};
