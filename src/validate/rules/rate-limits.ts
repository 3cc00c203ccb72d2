import { parseRate, RATE_FORMAT } from '@mcpgen/runtime/shared/rate';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diagnosticAt } from '../../parse/source.js';
import { report } from '../report.js';
import type { SpecView } from '../view.js';

/**
 * `rateLimit` (server-wide and per tool): the schema checks the form `<requests>/<duration>`; here the
 * bounds the runtime's limiter accepts, so a spec never generates a server that refuses to start.
 */
export function checkRateLimits(view: SpecView): Diagnostic[] {
  const out: Diagnostic[] = [];
  const server = view.spec.rateLimit;
  if (typeof server === 'string' && parseRate(server) === undefined) out.push(diagnosticAt(view.root, ['rateLimit'], 'MCPG150', `rateLimit ${JSON.stringify(server)} is out of bounds (${RATE_FORMAT})`));
  for (const tool of view.tools) {
    const rate = tool.value.rateLimit;
    if (typeof rate === 'string' && parseRate(rate) === undefined) out.push(report(tool, 'MCPG150', `tool ${JSON.stringify(tool.value.name)}: rateLimit ${JSON.stringify(rate)} is out of bounds (${RATE_FORMAT})`, ['rateLimit']));
  }
  return out;
}
