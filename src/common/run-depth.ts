// Whether this process ran the pipeline (`check`, `generate` past its "output is current" answer) or
// answered without it (a current run, --help). bin/mcpgen.js keeps the CLI's V8 code cache as complete
// only after the former (common/code-cache.ts): a cache made by a run that compiled a quarter of the
// bundle would make every later full run compile the rest again.
let ran = false;

export function notePipelineRun(): void {
  ran = true;
}

export function pipelineRan(): boolean {
  return ran;
}
