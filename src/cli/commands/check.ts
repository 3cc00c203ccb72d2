import { resolve } from 'node:path';
import { hasErrors } from '../../diagnostics/diagnostic.js';
import { check, resolveInputs } from '../../pipeline.js';
import { stringFlag, type Parsed } from '../args.js';
import { printDiagnostics, type Io } from '../report.js';

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
  const result = check(inputs.files, io.cwd, config?.dir, handlersFile);
  printDiagnostics(result, format, io);
  return hasErrors(result.diagnostics) ? 1 : 0;
}

