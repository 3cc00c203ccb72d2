// The deployment's exposure (issue 29): which toolsets, and read-only mode, from flags or the environment.
import { logText } from '../core/log.js';
import { basename } from 'node:path';
import type { ServerDefinition } from '../core/definition.js';
import { chosenToolsets, UnknownToolsetError, type ExposureOptions } from '../core/exposure.js';

/**
 * `--toolsets` (else MCPGEN_TOOLSETS) and `--read-only` (else MCPGEN_READ_ONLY): only the keys given, so
 * the server options' own defaults apply otherwise. Names are checked against the spec later (exposureOrExit).
 */
export function exposureArgs(flag: string | undefined, readOnlyFlag: boolean, env: Readonly<Record<string, string | undefined>>): ExposureOptions | { error: string } {
  const source = flag !== undefined ? '--toolsets' : 'MCPGEN_TOOLSETS';
  // A variable that is set but empty names no toolset: a mistake (exposing nothing), not "unset".
  const raw = flag ?? env.MCPGEN_TOOLSETS;
  const list = raw?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (list !== undefined && list.length === 0) return { error: `${source} is empty` };
  const envReadOnly = env.MCPGEN_READ_ONLY?.trim().toLowerCase();
  if (envReadOnly !== undefined && envReadOnly !== '' && !['1', 'true', '0', 'false'].includes(envReadOnly)) return { error: `MCPGEN_READ_ONLY must be 1, true, 0 or false, got ${JSON.stringify(env.MCPGEN_READ_ONLY)}` };
  const readOnly = readOnlyFlag || envReadOnly === '1' || envReadOnly === 'true';
  return { ...(list !== undefined ? { toolsets: list } : {}), ...(readOnly ? { readOnly: true } : {}) };
}

/** The exposure part of parsed entry args (what createXServer's options take). */
export function exposureOf(args: ExposureOptions): ExposureOptions {
  return { ...(args.toolsets !== undefined ? { toolsets: args.toolsets } : {}), ...(args.readOnly === true ? { readOnly: true } : {}) };
}

/**
 * The exposure options of a generated main.ts, with the toolset names checked against the spec before any
 * server is built: an unknown name prints the message and exits 2, like any other usage error.
 */
export function exposureOrExit(args: ExposureOptions, definition: ServerDefinition, program = basename(process.argv[1] ?? 'main.js')): ExposureOptions {
  const exposure = exposureOf(args);
  try {
    chosenToolsets(definition.toolsets ?? {}, exposure.toolsets);
  } catch (e) {
    if (!(e instanceof UnknownToolsetError)) throw e;
    logText('error', e.message, `${program}: `);
    process.exit(2);
  }
  return exposure;
}
