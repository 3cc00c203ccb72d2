import { resolve } from 'node:path';
import { hasErrors } from '../../diagnostics/diagnostic.js';
import { check, resolveInputs } from '../../pipeline.js';
import { stringFlag, type Parsed } from '../args.js';
import { printDiagnostics, type Io } from '../report.js';
import { UsageError } from '../../errors.js';
import { PROVIDER_TARGETS, type ProviderTarget } from '@mcpgen/runtime/shared/provider-rules';

/** `--target a,b` (or the config's `targets`): each one a provider mcpgen knows; the flag wins. */
function providerTargets(flag: string | undefined, configured: readonly ProviderTarget[] | undefined): ProviderTarget[] {
  if (flag === undefined) return [...(configured ?? [])];
  const list = flag.split(',').map((t) => t.trim()).filter((t) => t !== '');
  for (const t of list) if (!(PROVIDER_TARGETS as readonly string[]).includes(t)) throw new UsageError(`unknown --target ${JSON.stringify(t)}: one of ${PROVIDER_TARGETS.join(', ')} (comma-separated)`);
  return [...new Set(list)] as ProviderTarget[];
}

export function runCheck(args: Parsed, io: Io): number {
  const inputs = resolveInputs(args.positional, io.cwd, stringFlag(args, 'config'));
  const format = (stringFlag(args, 'format') ?? inputs.config?.format ?? 'text') as 'text' | 'json';
  if (inputs.diagnostics.length > 0) {
    printDiagnostics({ diagnostics: inputs.diagnostics, files: [], sources: inputs.sources }, format, io);
    return 1;
  }
  const config = inputs.config;
  // The same handlers-file collisions (MCPG101) `generate` refuses.
  const handlersFile = config?.handlers === undefined ? undefined : (server: string) => resolve(config.dir, config.handlers!.replaceAll('{server}', server));
  const result = check(inputs.files, io.cwd, config?.dir, handlersFile, providerTargets(stringFlag(args, 'target'), config?.targets), { models: false });
  printDiagnostics(result, format, io);
  return hasErrors(result.diagnostics) ? 1 : 0;
}

