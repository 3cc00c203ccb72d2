// upstream.ts (generated, rewritten every run): the `http:` bindings of the spec's bound tools as data and
// the proxy handlers the server factory puts under the team's handlers (a written handler wins). Spec
// values reach the code only as JSON literals.
import { stemNames } from '../common/names.js';
import type { FileSink } from './file-builder.js';
import type { ServerModel, ToolModel } from '../model/ir.js';
import { docs, jsdoc, literal } from './doc.js';

export function boundTools(model: ServerModel): ToolModel[] {
  return model.upstream === undefined ? [] : model.tools.filter((t) => t.http !== undefined);
}

/**
 * Data as a TypeScript literal: keys bare where they are identifiers, every string through literal().
 * Printed as statement text (ts-morph re-indents a multi-line initializer's continuation lines).
 */
export function tsValue(value: unknown, indent = ''): string {
  if (typeof value === 'string') return literal(value);
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== 'object' || v === null)) return `[${value.map((v) => tsValue(v)).join(', ')}]`;
    return `[\n${value.map((v) => `${inner}${tsValue(v, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${/^[A-Za-z_$][\w$]*$/.test(k) ? k : literal(k)}: ${tsValue(v, inner)},`).join('\n')}\n${indent}}`;
}

export function emitUpstream(model: ServerModel, file: FileSink): void {
  const upstream = model.upstream!;
  const names = stemNames(model.typeStem);
  const bound = boundTools(model);
  const envOf = new Map(upstream.schemes.map((s) => [s.id, s.auth.env]));
  // The runtime filters credentials by environment variable: scheme names become theirs here.
  const bindings = Object.fromEntries(
    bound.map((t) => {
      const { security, ...http } = t.http!;
      return [t.method, { ...http, ...(security !== undefined ? { security: security.map((id) => envOf.get(id) ?? id) } : {}), output: t.outputSchema !== undefined }];
    }),
  );
  file.addImportDeclarations([
    { moduleSpecifier: '@mcpgen/runtime/server', namedImports: ['httpProxy', 'type HttpBinding', 'type HttpProxyOptions'] },
    { moduleSpecifier: './server.js', isTypeOnly: true, namedImports: [stemNames(model.typeStem).handlers] },
  ]);
  file.addStatements([
    `/** The handler methods of the tools bound to an upstream operation (\`http:\` in the spec). */\nexport type ${names.boundMethod} = ${bound.map((t) => literal(t.method)).join(' | ')};`,
  ]);
  const options = {
    baseUrl: `env[${literal(upstream.baseUrlEnv)}] ?? ${literal(upstream.baseUrl ?? '')}`,
    ...(upstream.schemes.length > 0 ? { auth: tsValue(upstream.schemes.map((x) => x.auth), '    ') } : {}),
    ...Object.fromEntries((['timeoutMs', 'maxBytes', 'retries', 'retryDelayMs', 'maxRetryDelayMs'] as const).flatMap((k) => (upstream[k] !== undefined ? [[k, String(upstream[k])]] : []))),
  };
  file.addStatements([
    `${jsdoc("Each bound tool's operation, by handler method: the spec's `http:`, its security schemes by environment variable.")}export const httpBindings: { readonly [M in ${names.boundMethod}]: HttpBinding } = ${tsValue(bindings)};`,
    `${jsdoc(`Where and how the upstream is called: ${upstream.baseUrlEnv} replaces the spec's base URL${upstream.baseUrl === undefined ? ' (the spec gives none: set it)' : ''}; each credential is read from its environment variable at call time.`)}` +
      `export function upstreamOptions(env: Readonly<Record<string, string | undefined>> = process.env): HttpProxyOptions {\n  return {\n${Object.entries(options).map(([k, v]) => `    ${k}: ${v},`).join('\n')}\n    env,\n  };\n}`,
  ]);
  file.addFunction({
    name: names.proxy,
    isExported: true,
    docs: docs(`Handlers for the bound tools that call the upstream. The server factory uses them for every bound tool your handlers leave out; \`options\` add to upstreamOptions() (an \`upstreamToken\` hook, a \`fetch\`): spread \`${names.proxy}({ … })\` into your handlers to use them.`),
    parameters: [{ name: 'options', type: 'Partial<HttpProxyOptions>', initializer: '{}' }],
    returnType: `Pick<${stemNames(model.typeStem).handlers}, ${names.boundMethod}>`,
    statements: [`return httpProxy<Pick<${stemNames(model.typeStem).handlers}, ${names.boundMethod}>>(httpBindings, { ...upstreamOptions(), ...options });`],
  });
}
