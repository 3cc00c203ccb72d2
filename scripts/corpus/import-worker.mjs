// One child process of `npm run corpus` (scripts/corpus/run.mjs): imports and generates the descriptions the
// parent sends, one at a time, in-process through the built generator (dist/), and answers each with its
// outcome. Each description's output goes to a folder of its own, removed after (only the outcome is kept).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// The generator as built (a copy of dist/ the parent made, so a rebuild during a long run changes nothing).
const [work, root, dist = join(import.meta.dirname, '../../dist')] = process.argv.slice(2);
const { importOpenApi } = await import(pathToFileURL(join(dist, 'import/openapi/index.js')).href);
const { generate } = await import(pathToFileURL(join(dist, 'pipeline.js')).href);
// The writer of `mcpgen import`'s owned file (yaml's `stringify` writes C1 controls raw, which the spec loader refuses: MCPG001).
const { specToYaml } = await import(pathToFileURL(join(dist, 'import/common/yaml-spec.js')).href);
const firstErrors = (diagnostics) => diagnostics.filter((d) => d.severity === 'error').slice(0, 3).map((d) => `${d.code} ${d.message.slice(0, 300)}${d.line ? ` (${d.file?.split('/').pop()}:${d.line}:${d.column})` : ''}`);

/** Import then generate one description; an exception is a crash, an error diagnostic a refusal. */
export async function importAndGenerate(id, file, name, dir, cwd) {
  const t0 = performance.now();
  const imported = await importOpenApi(file, cwd, { name });
  const t1 = performance.now();
  const tools = Array.isArray(imported.spec.tools) ? imported.spec.tools.length : 0;
  const warnings = imported.diagnostics.filter((d) => d.severity !== 'error');
  const base = { id, tools, repairs: warnings.filter((d) => d.code === 'MCPG191').length, warnings: warnings.length, importMs: Math.round(t1 - t0) };
  const importErrors = firstErrors(imported.diagnostics);
  if (importErrors.length > 0) return { ...base, outcome: 'import refused', reasons: importErrors };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.yaml`), specToYaml(imported.spec, []));
  const generated = await generate([join(dir, `${name}.yaml`)], dir, { out: 'out' });
  const generateMs = Math.round(performance.now() - t1);
  const errors = firstErrors(generated.diagnostics);
  if (errors.length > 0) return { ...base, generateMs, outcome: 'generate refused', reasons: errors };
  if (generated.outputs.length === 0) return { ...base, generateMs, outcome: 'generate refused', reasons: ['no files written'] };
  return { ...base, generateMs, outcome: 'ok', files: generated.outputs.length };
}

if (process.send !== undefined) {
  process.on('message', async ({ id, file, name }) => {
    const dir = join(work, `worker-${process.pid}`);
    let result;
    try {
      result = await importAndGenerate(id, file, name, dir, root);
    } catch (e) {
      result = { id, outcome: 'crash', reasons: [String(e?.stack ?? e).split('\n').slice(0, 4).join(' | ').slice(0, 600)] };
    }
    rmSync(dir, { recursive: true, force: true });
    process.send(result);
  });
  process.send({ ready: true });
}
