// `npm run build` starts from empty output folders: tsc never deletes the output of a source file that was
// moved or removed, and such stale files would be packed and published (the runtime's tarball carried both
// dist/server/node-http.js and dist/server/transport/node-http.js after the runtime was laid out by concern).
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
for (const dir of ['dist', 'packages/runtime/dist', 'packages/runtime-client/dist']) rmSync(join(root, dir), { recursive: true, force: true });
