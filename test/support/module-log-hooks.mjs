// Loader hooks for module-log.mjs (they run on the loader's own thread).
import { appendFileSync } from 'node:fs';

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  appendFileSync(process.env.MODULE_LOG, `${url}\n`);
  return loaded;
}
