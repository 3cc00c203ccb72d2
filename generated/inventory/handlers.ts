// Written once by mcpgen from specs/inventory.yaml as a starting point. This file is yours:
// mcpgen never overwrites it. Regenerating updates server.ts, whose types this file must satisfy.

import { hostname } from 'node:os';
import { notFound, toolError } from '@mcpgen/runtime/server';
import type { InventoryHandlers } from './server.js';

/** Which instance served a call: INSTANCE_ID when set (tests, compose files), else the host name. */
const INSTANCE = process.env.INSTANCE_ID ?? hostname();

// Stock kept in this process, so the example runs anywhere. With several instances a real service
// keeps it in its database; what mcpgen shares between instances is the change notifications and
// the verification of confirmations (requestState), which is what this example shows.
const stock = new Map<string, number>();

export const handlers: InventoryHandlers = {
  async restock({ sku, units }, ctx) {
    const now = (stock.get(sku) ?? 0) + units;
    stock.set(sku, now);
    // Listeners on every instance hear this (with REDIS_URL set), whichever instance they are connected to.
    ctx.notify.resourceUpdated(`inventory://items/${sku}`);
    return { sku, units: now, servedBy: INSTANCE };
  },
  async discontinue({ sku }, ctx) {
    const answer = ctx.elicit.confirm.response;
    // The state rides with the client to whichever instance serves the retry; the runtime signs it on
    // the way out and verifies it on the way back, so it can be trusted here.
    if (answer === undefined) return ctx.elicit.confirm.ask({ requestState: JSON.stringify({ askedBy: INSTANCE }) });
    if (answer.action !== 'accept' || !answer.content.confirm) return toolError(`${sku} was not discontinued.`);
    const { askedBy } = JSON.parse(ctx.requestState ?? '{"askedBy":"unknown"}') as { askedBy: string };
    stock.delete(sku);
    ctx.notify.toolsChanged();
    return { sku, askedBy, confirmedBy: INSTANCE };
  },
  async readItem({ sku }) {
    const units = stock.get(sku);
    if (units === undefined) notFound(`inventory://items/${sku}`);
    return JSON.stringify({ sku, units });
  },
};
