import type { FileSink } from './file-builder.js';
import type { ServerModel } from '../model/ir.js';
import { clientClassName } from './client-file.js';
import { stemNames } from '../common/names.js';
import { docs, jsdoc, literal } from './doc.js';
import { boundTools, tsValue } from './upstream-file.js';
import { handlersInterfaceName, serverFactoryName } from './server-file.js';

/** index.ts: the package's public surface (with bound tools, the upstream proxy too). */
export function emitIndex(file: FileSink, upstream = false): void {
  file.addExportDeclarations([
    { moduleSpecifier: './types.js' },
    { moduleSpecifier: './server.js' },
    { moduleSpecifier: './definition.js' },
    ...(upstream ? [{ moduleSpecifier: './upstream.js' }] : []),
  ]);
}

/**
 * main.ts: `node main.js` serves stdio; `node main.js --http --port 3000` serves Streamable HTTP. The flags
 * (and --help) are the runtime's entryArgsOrExit, read before the server or its Redis bus is built.
 */
export function emitMain(model: ServerModel, file: FileSink, handlersModule = './handlers.js'): void {
  file.addImportDeclarations([
    { moduleSpecifier: '@mcpgen/runtime/server', namedImports: ['entryArgsOrExit', 'exposureOrExit', 'runMain', 'serverOptionsFromEnv'] },
    { moduleSpecifier: './definition.js', namedImports: ['definition'] },
    { moduleSpecifier: handlersModule, namedImports: ['handlers'] },
    { moduleSpecifier: './server.js', namedImports: [serverFactoryName(model)] },
  ]);
  // Entry-point limits and deployment settings from the environment (Redis bus, requestState keys).
  // With `auth:` the issuers and the resource identifier are settings too (they differ per environment).
  // The definition gives the entry point the auth flags, the declared rate limits and the tool names
  // --print-config checks the settings against (as serving does); a server with bound tools hands in its
  // upstream API's variables too (base URL, credentials: checked at start, accepted in --config, in --help).
  const upstream = boundTools(model).length > 0 ? model.upstream : undefined;
  const features = upstream === undefined ? '{ definition }' : `{\n  definition,\n  upstream: ${tsValue({ baseUrlEnv: upstream.baseUrlEnv, baseUrl: upstream.baseUrl, auth: upstream.schemes.length > 0 ? upstream.schemes.map((x) => x.auth) : undefined }, '  ')},\n}`;
  const argsLine =
    model.auth !== undefined
      ? '// --http, --host, --port, --allowed-hosts, --allowed-origins, --auth-issuers, --auth-resource, the probe\n' +
        '// paths, --toolsets, --read-only (or HOST, PORT, MCPGEN_*); `node main.js --help` lists them. Unknown\n' +
        '// flags and toolsets exit 2, wrong values 1.\n' +
        `const args = entryArgsOrExit(${features});`
      : '// --http, --host, --port, --allowed-hosts, --allowed-origins, the probe paths, --toolsets, --read-only (or\n' +
        '// HOST, PORT, MCPGEN_*); `node main.js --help` lists them. Unknown flags and toolsets exit 2, wrong values 1.\n' +
        `const args = entryArgsOrExit(${features});`;
  file.addStatements([
    argsLine,
    '// Entry-point limits: a tool without its own `timeoutMs` in the spec is stopped after 60 s (its ctx.signal\n' +
      '// aborts, the client gets an isError result), and no tool result or resource is sent above 16 MiB.\n' +
      '// Deployment settings (REDIS_URL, MCPGEN_REQUEST_STATE_KEYS…) come from the environment.\n' +
      // The spec's rate limits go through the environment's settings: MCPGEN_RATE_LIMIT… override them, REDIS_URL shares them.
      `await runMain(${serverFactoryName(model)}(handlers, { toolTimeoutMs: 60_000, maxResponseBytes: 16 * 1024 * 1024, ...(await serverOptionsFromEnv(${literal(model.name)}${model.rateLimits !== undefined ? ', process.env, definition.rateLimits' : ''})), ...exposureOrExit(args, definition) }), args);`,
  ]);
}

/**
 * The stub of every handler method, by method name, in spec order: the scaffold is made of them, and
 * `generate` prints the ones a spec gained since the scaffold was written.
 */
export function handlerStubs(model: ServerModel): Map<string, string> {
  const stubs = new Map<string, string>();
  // A bound tool (`http:`) is answered by the upstream proxy: no stub, nothing to add when the spec gains one.
  const bound = new Set(boundTools(model));
  for (const t of model.tools) if (!bound.has(t)) stubs.set(t.method, stub(t.method, `tool ${t.name}`));
  for (const r of model.resources) stubs.set(r.method, stub(r.method, `resource ${r.uri}`));
  for (const t of model.resourceTemplates) stubs.set(t.method, t.uriTemplate.startsWith('file://') ? fileTemplateStub(t.method, t.uriTemplate) : stub(t.method, `resource template ${t.uriTemplate}`));
  for (const p of model.prompts) stubs.set(p.method, stub(p.method, `prompt ${p.name}`));
  return stubs;
}

/** handlers.ts: written once with a stub per method; after that it is the user's file. `serverModule`: server.ts as seen from it. */
export function emitHandlersScaffold(model: ServerModel, file: FileSink, serverModule = './server.js'): void {
  const members = [...handlerStubs(model).values()];
  const bound = boundTools(model);
  const type = bound.length > 0 ? stemNames(model.typeStem).ownHandlers : handlersInterfaceName(model);
  file.addImportDeclaration({ moduleSpecifier: serverModule, isTypeOnly: true, namedImports: [type] });
  // As text, not a variable structure: ts-morph indents a multi-line initializer's continuation lines,
  // which left the stubs 4 spaces in and the closing `};` at 2 (issue 24). Text at the top level is kept as written.
  const [doc] = docs(
    `Your implementation of the ${model.name} server. mcpgen wrote this file once and never overwrites it; ${clientClassName(model)} and server.ts stay in sync with the spec.`,
    bound.length > 0 ? `The upstream proxy (upstream.ts) answers the tools bound with \`http:\` (${bound.map((t) => t.method).join(', ')}); a method you write here for one of them wins.` : undefined,
  );
  const body = members.length > 0 ? `{\n${members.join('\n')}\n}` : '{}';
  file.addStatements([`${jsdoc(doc!.description)}export const handlers: ${type} = ${body};`]);
}

function stub(method: string, what: string): string {
  return `  async ${method}() {\n    throw new Error(${literal(`${what}: not implemented yet`)});\n  },`;
}

/**
 * A file:// template's stub shows the safe way to reach the file (R3): the runtime has already refused
 * values that leave their segment; realPathInRoot keeps the joined path inside the root, symlinks included.
 */
function fileTemplateStub(method: string, uriTemplate: string): string {
  const what = literal(`resource template ${uriTemplate}: not implemented yet`);
  return [
    `  async ${method}(variables) {`,
    `    // Resolve template values inside a root directory, never by string concatenation:`,
    `    //   const file = await realPathInRoot('/srv/files', variables.<name>); // undefined when outside the root or missing`,
    `    //   if (file === undefined) notFound(uri); // uri: the resource URI that was read`,
    `    //   return new Uint8Array(await readFile(file));`,
    `    // (realPathInRoot and notFound come from '@mcpgen/runtime/server', readFile from 'node:fs/promises'.)`,
    `    void variables;`,
    `    throw new Error(${what});`,
    `  },`,
  ].join('\n');
}
