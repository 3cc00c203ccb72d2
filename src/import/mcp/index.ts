import { specToYaml } from '../common/yaml-spec.js';
import { connect, describeTarget, type Era, type ServerTarget } from './connect.js';
import { hoistDefs } from './hoist.js';
import type { LeniencyEntry } from './leniency.js';
import { readServer, type ServerDump } from './read.js';
import { toSpec } from './to-spec.js';

export { formatLeniency, type LeniencyEntry } from './leniency.js';
export type { Era, ServerTarget } from './connect.js';
export type { ServerDump } from './read.js';

export interface ImportOptions {
  readonly target: ServerTarget;
  readonly era?: Era;
  readonly hoistDefs?: boolean;
  readonly timeoutMs?: number;
}

export interface ImportResult {
  readonly yaml: string;
  readonly dump: ServerDump;
  readonly leniency: readonly LeniencyEntry[];
  readonly hoisted: readonly string[];
}

/** Connects, reads every list, and returns the spec text plus what the import changed or dropped. */
export async function importMcp(options: ImportOptions): Promise<ImportResult> {
  const client = await connect(options.target, options.era ?? 'auto', options.timeoutMs ?? 30_000);
  let dump: ServerDump;
  try {
    dump = await readServer(client);
  } finally {
    await client.close().catch(() => undefined);
  }
  return { ...dumpToYaml(dump, describeTarget(options.target), options.hoistDefs === true), dump };
}

/** The pure half of the import (tests feed it dumps directly). */
export function dumpToYaml(dump: ServerDump, source: string, hoist: boolean): Omit<ImportResult, 'dump'> {
  const { spec, leniency } = toSpec(dump);
  const hoisted = hoist ? hoistDefs(spec) : [];
  for (const name of hoisted) leniency.add('spec', 'changed', `/$defs/${name}`, 'repeated sub-schema moved into $defs (--hoist-defs): tools/list now sends it through $ref');
  const header = [
    `Imported by \`mcpgen import mcp\` from ${source.replace(/[\r\n]/g, ' ')}`,
    `(protocol ${dump.protocolVersion ?? 'unknown'}). Handlers are yours to write: \`mcpgen generate\` writes stubs.`,
  ];
  return { yaml: specToYaml(spec, header), leniency: leniency.entries, hoisted };
}
