import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { LoadedSpec } from '../load/spec-files.js';
import { withValue, type SourceFile } from '../parse/source.js';
import { checkApps } from './rules/apps.js';
import { checkAuth } from './rules/auth.js';
import { checkCapabilities } from './rules/capabilities.js';
import { checkElicit } from './rules/elicit.js';
import { checkExamples } from './rules/examples.js';
import { checkIcons } from './rules/icons.js';
import { checkJsonSchemas } from './rules/json-schema.js';
import { checkAnnotations, checkMeta } from './rules/meta.js';
import { checkNames } from './rules/names.js';
import { checkPrompts, checkResources } from './rules/resources.js';
import { checkRateLimits } from './rules/rate-limits.js';
import { checkTasks } from './rules/tasks.js';
import { checkHttpBindings } from './rules/http-bindings.js';
import { checkUpstream } from './rules/upstream.js';
import { checkToolsets } from './rules/toolsets.js';
import { checkDiscovery } from './rules/discovery.js';
import { checkProviderTargets } from './rules/provider-targets.js';
import type { ProviderTarget } from '@mcpgen/runtime/shared/provider-rules';
import { checkUriFields } from './rules/uris.js';
import { checkMcpHeaders } from './rules/x-mcp-header.js';
import { applyOverrides } from './overrides.js';
import { validateSpecFormat } from './spec-format.js';
import type { RawSpecFile } from './spec-types.js';
import { buildView, type SpecView } from './view.js';

const RULES: readonly ((view: SpecView) => Diagnostic[])[] = [
  checkNames,
  checkJsonSchemas,
  checkMcpHeaders,
  checkResources,
  checkPrompts,
  checkIcons,
  checkUriFields,
  checkElicit,
  checkCapabilities,
  checkAuth,
  checkApps,
  checkTasks,
  checkAnnotations,
  checkMeta,
  checkToolsets,
  checkRateLimits,
  checkDiscovery,
  checkHttpBindings,
  checkUpstream,
  checkExamples,
];

export interface ValidationResult {
  readonly diagnostics: Diagnostic[];
  /** Present when the spec has no errors: the only input the model builder accepts. */
  readonly view: SpecView | undefined;
}

/**
 * Every rule over every file; entries with format errors are left out of the MCP rules, not the report.
 * `targets`: model providers to check the tools against (`check --target`; warnings only).
 */
export function validateSpec(spec: LoadedSpec, targets: readonly ProviderTarget[] = []): ValidationResult {
  const diagnostics: Diagnostic[] = [];
  const sanitize = (source: SourceFile, role: 'root' | 'include'): SourceFile | undefined => {
    const format = validateSpecFormat(source, role);
    diagnostics.push(...format.diagnostics);
    return format.usable ? withValue(source, withoutBroken(source.value as RawSpecFile, format.broken)) : undefined;
  };
  const root = sanitize(spec.root, 'root');
  const includes = spec.includes.flatMap((s) => sanitize(s, 'include') ?? []);
  if (root === undefined) return { diagnostics, view: undefined };
  // The root's `overrides:` patch entries of any file before the rules see them (overrides.ts).
  const patched = applyOverrides(root, includes, [spec.root, ...spec.includes]);
  diagnostics.push(...patched.diagnostics);
  const view = buildView(patched.root, patched.includes, spec.appFiles);
  for (const rule of RULES) diagnostics.push(...rule(view).map(patched.repoint));
  if (targets.length > 0) diagnostics.push(...checkProviderTargets(view, targets).map(patched.repoint));
  return { diagnostics, view: hasErrors(diagnostics) ? undefined : view };
}

function withoutBroken(spec: RawSpecFile, broken: ReadonlySet<string>): RawSpecFile {
  if (broken.size === 0) return spec;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(spec)) {
    if (broken.has(key)) continue;
    // Keep indexes stable (diagnostics point by index): replace broken entries with holes the view skips.
    out[key] = Array.isArray(value) ? value.map((v, i) => (broken.has(`${key}/${i}`) ? undefined : v)) : value;
  }
  return out as RawSpecFile;
}
