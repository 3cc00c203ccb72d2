import { generatedRuntimeDependencies, npmInstallLine, vendoredInstallLine } from '../common/package-files.js';
import { codeSpan, exampleText, jsonSpan, markdown, visible } from '../common/markdown.js';
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

/** The exact `npm install` line for what the generated server loads (also printed by `generate` when missing). */
export function installLine(): string {
  return npmInstallLine(generatedRuntimeDependencies().server.packages);
}

/** The same for the generated client (client.ts, openai.ts), as dev dependencies. */
export function clientInstallLine(): string {
  return npmInstallLine(generatedRuntimeDependencies().client.packages, true);
}

/** Text inside an HTML comment: `-->` would end it early. */
function commentText(text: string): string {
  return visible(text).replace(/--/g, '-\\-');
}

function summary(text: string | undefined): string | undefined {
  return text === undefined ? undefined : markdown(text);
}

export { codeSpan, markdown };
