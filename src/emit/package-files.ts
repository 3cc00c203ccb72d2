import { generatedRuntimeDependencies, npmInstallLine, vendoredInstallLine } from '../common/package-files.js';
import { renderTemplate } from '../common/templates.js';
import type { ServerModel } from '../model/ir.js';
import { clientClassName } from './client-file.js';
import { handlersInterfaceName, serverFactoryName } from './server-file.js';

export function packageJson(model: ServerModel): string {
  return renderTemplate('package.json', {
    packageName: `${model.folder.toLowerCase().replace(/[^a-z0-9._-]/g, '-')}-mcp`,
    version: model.version,
    description: model.description ?? model.title ?? `${model.name} MCP server`,
    node: generatedRuntimeDependencies().server.node,
    dependencies: Object.fromEntries(generatedRuntimeDependencies().server.packages),
    devDependencies: Object.fromEntries(generatedRuntimeDependencies().client.packages),
  });
}

export function tsconfigJson(): string {
  return renderTemplate('tsconfig.json', {});
}

export function readme(model: ServerModel, options: { readonly packageFiles?: boolean; readonly handlersModule?: string } = {}): string {
  const packageFiles = options.packageFiles ?? true;
  return renderTemplate('README.md', {
    // The layout actually written: the handlers file where the config put it, a package build or the project's.
    handlersFile: codeSpan((options.handlersModule ?? './handlers.js').replace(/^\.\//, '').replace(/\.js$/, '.ts')),
    packageFiles,
    main: packageFiles ? 'dist/main.js' : '<build>/main.js',
    specFile: commentText(model.specFile),
    name: codeSpan(model.name),
    title: markdown(model.title ?? model.name),
    description: model.description === undefined ? undefined : markdown(model.description),
    protocolVersion: model.protocolVersion,
    handlersName: handlersInterfaceName(model),
    factoryName: serverFactoryName(model),
    clientName: clientClassName(model),
    legacy: model.legacy,
    install: installLine(),
    clientInstall: clientInstallLine(),
    vendoredInstall: vendoredInstallLine(generatedRuntimeDependencies().server),
    vendoredClientInstall: vendoredInstallLine(generatedRuntimeDependencies().client, true),
    tools: model.tools.map((t) => ({ name: codeSpan(t.name), summary: summary(t.title ?? t.description), headers: t.headers.map((h) => codeSpan(`Mcp-Param-${h.header}`)).join(', '), examples: t.examples.map((e) => ({ ...exampleText(e), isError: e.isError, ...(e.result === undefined ? {} : { result: jsonSpan(e.result) }) })) })),
    hasExamples: model.tools.some((t) => t.examples.length > 0) || model.prompts.some((p) => p.examples.length > 0),
    resources: [...model.resources.map((r) => ({ uri: codeSpan(r.uri), summary: summary(r.title ?? r.description) })), ...model.resourceTemplates.map((t) => ({ uri: codeSpan(t.uriTemplate), summary: summary(t.title ?? t.description) }))],
    prompts: model.prompts.map((p) => ({ name: codeSpan(p.name), summary: summary(p.title ?? p.description), examples: p.examples.map((e) => ({ ...exampleText(e), ...(e.messages === undefined ? {} : { messages: jsonSpan(e.messages) }) })) })),
    fileTemplates: model.resourceTemplates.some((t) => t.uriTemplate.startsWith('file://')),
    // What each deployment can choose (docs/toolsets.md): the same membership the runtime filters by. With
    // discovery a deployment that chooses none offers every toolset, so `default` marks nothing; what each
    // caller starts with is the initial set.
    toolsets: model.toolsets.map((t) => ({ name: codeSpan(t.name), isDefault: model.discovery === undefined && t.default, isInitial: model.discovery?.initial.includes(t.name) === true, summary: summary(t.description), members: [...t.tools, ...t.resources, ...t.resourceTemplates, ...t.prompts].map(codeSpan).join(', ') })),
    ...(model.discovery !== undefined ? { discovery: { initial: model.discovery.initial.length > 0 ? model.discovery.initial.map(codeSpan).join(', ') : 'none' } } : {}),
  });
}

/** An example's name, description and arguments as README text (the values as one-line JSON code spans). */
function exampleText(e: { readonly name?: string; readonly description?: string; readonly arguments: unknown }): { name?: string; description?: string; arguments: string } {
  return { ...(e.name === undefined ? {} : { name: markdown(e.name) }), ...(e.description === undefined ? {} : { description: markdown(e.description) }), arguments: jsonSpan(e.arguments) };
}

function jsonSpan(value: unknown): string {
  return codeSpan(JSON.stringify(value));
}

/** The exact `npm install` line for what the generated server loads (also printed by `generate` when missing). */
export function installLine(): string {
  return npmInstallLine(generatedRuntimeDependencies().server.packages);
}

/** The same for the generated client (client.ts, openai.ts), as dev dependencies. */
export function clientInstallLine(): string {
  return npmInstallLine(generatedRuntimeDependencies().client.packages, true);
}

/** Spec text in Markdown: one line, no HTML, no accidental formatting, invisible characters made visible. */
export function markdown(text: string): string {
  return visible(text.replace(/\s+/g, ' ').replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!).replace(/([\\`*_[\]|~])/g, '\\$1').trim());
}

/**
 * Spec text as one Markdown code span (names, URIs, headers): the fence is longer than any run of
 * backticks inside, padded when the text starts or ends with one (CommonMark 6.1). HTML and
 * formatting are literal inside a code span; line breaks and invisible characters are not kept.
 */
export function codeSpan(text: string): string {
  const t = visible(text.replace(/[\r\n]+/g, ' '));
  const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = t.startsWith('`') || t.endsWith('`') || (t.startsWith(' ') && t.endsWith(' ') && t.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

/** Control characters (C0, DEL, C1) and bidi/line-separator controls as visible `\u` escapes. */
function visible(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Text inside an HTML comment: `-->` would end it early. */
function commentText(text: string): string {
  return visible(text).replace(/--/g, '-\\-');
}

function summary(text: string | undefined): string | undefined {
  return text === undefined ? undefined : markdown(text);
}
