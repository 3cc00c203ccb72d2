// Pure functions from the model to files: no YAML, no validation, no disk.
import type { ServerModel } from '../model/ir.js';
import { banner } from './banner.js';
import { emitClient } from './client-file.js';
import { emitDefinition } from './definition-file.js';
import { emitHandlersScaffold, emitIndex, emitMain, handlerStubs } from './entry-files.js';
import { FileBuilder, FileSink, type GeneratedFile } from './file-builder.js';
import { emitOpenAi, emitToolCallers } from './openai-file.js';
import { emitAnthropic } from './anthropic-file.js';
import { emitGemini } from './gemini-file.js';
import { packageJson, readme, tsconfigJson } from './package-files.js';
import { emitServer } from './server-file.js';
import { emitSkills } from './skills-file.js';
import { emitTypes } from './types-file.js';
import { boundTools, emitUpstream } from './upstream-file.js';

export type { GeneratedFile } from './file-builder.js';
export { GENERATED_MARK } from './banner.js';
export { handlerStubs } from './entry-files.js';

export interface EmitOptions {
  /** Also write package.json and tsconfig.json (a standalone package). Default true. */
  readonly packageFiles?: boolean;
  /** The handlers file as imported from main.ts (default `./handlers.js`: the scaffold inside the package). */
  readonly handlersModule?: string;
  /** server.ts as imported from the handlers file (default `./server.js`). */
  readonly serverModule?: string;
}

const CODE_FILES: readonly [string, (m: ServerModel, f: FileSink, o: EmitOptions) => void][] = [
  ['types.ts', emitTypes],
  ['definition.ts', emitDefinition],
  ['server.ts', emitServer],
  ['client.ts', emitClient],
  ['tool-callers.ts', emitToolCallers],
  ['openai.ts', emitOpenAi],
  ['anthropic.ts', emitAnthropic],
  ['gemini.ts', emitGemini],
  ['index.ts', (m, f) => emitIndex(f, boundTools(m).length > 0)],
  ['main.ts', (m, f, o) => emitMain(m, f, o.handlersModule)],
];

export function emitServerPackage(model: ServerModel, options: EmitOptions = {}, builder = new FileBuilder()): GeneratedFile[] {
  const head = banner(model);
  const code = [
    ...CODE_FILES,
    ...(model.skills !== undefined ? [['skills.ts', emitSkills] as const] : []),
    ...(boundTools(model).length > 0 ? [['upstream.ts', emitUpstream] as const] : []),
  ];
  const files: GeneratedFile[] = code.map(([path, emit]) => {
    const sink = new FileSink();
    emit(model, sink, options);
    return { path, content: builder.print(`${model.folder}/${path}`, sink, head), kind: 'generated' as const };
  });
  const scaffold = new FileSink();
  emitHandlersScaffold(model, scaffold, options.serverModule);
  files.push({ path: 'handlers.ts', content: builder.print(`${model.folder}/handlers.ts`, scaffold, banner(model, 'scaffold')), kind: 'scaffold' });
  files.push({ path: 'README.md', content: readme(model, options), kind: 'generated' });
  if (options.packageFiles ?? true) {
    files.push({ path: 'package.json', content: packageJson(model), kind: 'generated' });
    files.push({ path: 'tsconfig.json', content: tsconfigJson(), kind: 'generated' });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** One server package to emit: its model (spec path as the output shows it) and the options. */
export interface PackageJob {
  readonly model: ServerModel;
  readonly options: EmitOptions;
}

export interface EmittedPackage {
  readonly files: GeneratedFile[];
  /** The handler stub of each method, by method name (what a grown spec tells the user to add; '' for a bound tool). */
  readonly methods: Map<string, string>;
}

/** Every package of a run, sharing one printer. */
export function emitPackages(jobs: readonly PackageJob[]): EmittedPackage[] {
  const builder = new FileBuilder();
  return jobs.map(({ model, options }) => ({ files: emitServerPackage(model, options, builder), methods: handlerMethods(model) }));
}

/**
 * Every handler method with its stub; a bound tool's (`http:`) has none: the proxy answers it, so it is
 * never asked for, yet a handler written for it is still the spec's, not a dropped one.
 */
function handlerMethods(model: ServerModel): Map<string, string> {
  const stubs = handlerStubs(model);
  return new Map(model.tools.map((t) => t.method).concat([...stubs.keys()]).map((m) => [m, stubs.get(m) ?? '']));
}
