// Written once by mcpgen from specs/files.yaml as a starting point. This file is yours:
// mcpgen never overwrites it. Regenerating updates server.ts, whose types this file must satisfy.

import { notFound } from '@mcpgen/runtime/server';
import type { FilesHandlers } from './server.js';

const FILES: Record<string, string> = {
  'README.md': '# Project\n\nAn example project.\n',
  'src/index.ts': 'export const answer = 42;\n',
  'src/util.ts': 'export const id = <T>(x: T) => x;\n',
};

// A 1x1 transparent PNG.
const LOGO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A fixed in-memory project tree, so the example runs anywhere. */
export const handlers: FilesHandlers = {
  async searchFiles({ text, limit = 20 }) {
    const matches = Object.keys(FILES)
      .filter((p) => p.includes(text))
      .slice(0, limit)
      .map((p) => ({ uri: `file:///project/${p}`, size: Buffer.byteLength(FILES[p]!) }));
    return { matches };
  },
  readReadme() {
    return FILES['README.md']!;
  },
  readLogo() {
    return new Uint8Array(LOGO);
  },
  readSourceDir() {
    return Object.keys(FILES)
      .filter((p) => p.startsWith('src/'))
      .map((p) => ({ uri: `file:///project/${p}`, mimeType: 'text/plain', text: FILES[p]! }));
  },
  readProjectFile({ path }, ctx) {
    const rel = Array.isArray(path) ? path.join('/') : path;
    const text = rel.split('/').includes('..') ? undefined : FILES[rel];
    if (text === undefined) notFound(`file:///project/${rel}`);
    void ctx;
    return text;
  },
  readGitLog({ ref }) {
    return JSON.stringify([{ ref, commit: '0000000', message: 'initial commit' }]);
  },
};
