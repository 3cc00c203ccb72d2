import { generatedRuntimeDependencies, npmInstallLine } from '../common/package-files.js';
import { renderTemplate } from '../common/templates.js';
import type { ServerModel } from '../model/ir.js';
import { clientClassName } from './client-file.js';
import { handlersInterfaceName, serverFactoryName } from './server-file.js';

export function packageJson(model: ServerModel): string {
  return renderTemplate('package.json', {
    packageName: `${model.name.toLowerCase().replace(/[^a-z0-9._-]/g, '-')}-mcp`,
    version: model.version,
    description: model.description ?? model.title ?? `${model.name} MCP server`,
    dependencies: Object.fromEntries(generatedRuntimeDependencies().packages),
  });
}

export function tsconfigJson(): string {
  return renderTemplate('tsconfig.json', {});
}

export function readme(model: ServerModel): string {
  return renderTemplate('README.md', {
    specFile: model.specFile,
    name: model.name,
    title: markdown(model.title ?? model.name),
    description: model.description === undefined ? undefined : markdown(model.description),
    protocolVersion: model.protocolVersion,
    handlersName: handlersInterfaceName(model),
    factoryName: serverFactoryName(model),
    clientName: clientClassName(model),
    legacy: model.legacy,
    install: installLine(),
    tools: model.tools.map((t) => ({ name: t.name, summary: summary(t.title ?? t.description), headers: t.headers.map((h) => `\`Mcp-Param-${h.header}\``).join(', ') })),
    resources: [...model.resources.map((r) => ({ uri: r.uri, summary: summary(r.title ?? r.description) })), ...model.resourceTemplates.map((t) => ({ uri: t.uriTemplate, summary: summary(t.title ?? t.description) }))],
    prompts: model.prompts.map((p) => ({ name: p.name, summary: summary(p.title ?? p.description) })),
  });
}

/** The exact `npm install` line for what generated code loads (also printed by `generate` when missing). */
export function installLine(): string {
  return npmInstallLine(generatedRuntimeDependencies().packages);
}

/** Spec text in Markdown: one line, no HTML, no accidental formatting. */
function markdown(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!).replace(/([\\`*_[\]|])/g, '\\$1').trim();
}

function summary(text: string | undefined): string | undefined {
  return text === undefined ? undefined : markdown(text);
}
