// What stdio.ts uses of the SDK's stdio entry, which it imports when stdio is served. Named here (not
// `import('@modelcontextprotocol/server/stdio')`) so that a bundler keeps only this, not the whole entry.
export { serveStdio } from '@modelcontextprotocol/server/stdio';
