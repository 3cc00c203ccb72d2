import { didYouMean } from '../../common/suggest.js';
import { httpBody, httpParams, pathVariables } from '../../common/http-binding.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { report } from '../report.js';
import type { RawTool } from '../spec-types.js';
import type { Located, SpecView } from '../view.js';

/**
 * A tool's `http:` binding (MCPG114–MCPG117, MCPG133, MCPG135): the path template and its params match,
 * every value is read from a declared input property, and the schemes it names exist. The schema has
 * checked the shapes; these are the checks across fields that would otherwise fail at call time.
 */
export function checkHttpBindings(view: SpecView): Diagnostic[] {
  const schemes = Object.keys(view.upstream?.value.security ?? {});
  return view.tools.flatMap((tool) => (tool.value.http === undefined ? [] : checkTool(tool, schemes)));
}

function checkTool(tool: Located<RawTool>, schemes: readonly string[]): Diagnostic[] {
  const binding = tool.value.http!;
  const out: Diagnostic[] = [];
  const name = JSON.stringify(tool.value.name);
  const input = tool.value.input ?? {};
  const declared = isRecord(input.properties) ? Object.keys(input.properties) : [];
  const required = new Set(Array.isArray(input.required) ? input.required.map(String) : []);
  const unknown = (property: string, segments: (string | number)[], target: 'key' | 'value'): void => {
    const hint = didYouMean(property, declared);
    const suffix = hint !== undefined ? `; did you mean "${hint}"?` : declared.length > 0 ? `; it declares ${declared.join(', ')}` : '; it declares none';
    out.push(report(tool, 'MCPG115', `tool ${name}: http reads input property "${property}", which the tool's input does not declare${suffix}`, ['http', ...segments], target));
  };
  const params = httpParams(binding);
  const wire = new Map<string, string>();
  for (const p of params) {
    const at = ['http', 'params', p.property];
    if (!declared.includes(p.property)) unknown(p.property, ['params', p.property], 'key');
    else if (p.in === 'path' && !required.has(p.property)) out.push(report(tool, 'MCPG116', `tool ${name}: path param "${p.property}" must be listed in the input's \`required\` (a path segment cannot be left out)`, at, 'key'));
    if (p.in !== 'query' && (p.style !== undefined || p.explode !== undefined || p.contentType !== undefined)) {
      const key = p.style !== undefined ? 'style' : p.explode !== undefined ? 'explode' : 'contentType';
      const what = key === 'contentType' ? '`contentType` applies' : '`style` and `explode` apply';
      out.push(report(tool, 'MCPG135', `tool ${name}: param "${p.property}" is in ${p.in}; ${what} to query params only`, [...at, key], 'key'));
    } else if (p.contentType !== undefined && (p.style !== undefined || p.explode !== undefined)) {
      out.push(report(tool, 'MCPG135', `tool ${name}: param "${p.property}" is sent as ${p.contentType}; \`style\` and \`explode\` do not apply beside \`contentType\``, [...at, p.style !== undefined ? 'style' : 'explode'], 'key'));
    }
    const key = `${p.in} ${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
    const first = wire.get(key);
    if (first !== undefined) out.push(report(tool, 'MCPG133', `tool ${name}: params "${first}" and "${p.property}" both send ${p.in} "${p.name}"`, at, 'key'));
    else wire.set(key, p.property);
  }
  const template = pathVariables(binding.path);
  if ('problem' in template) {
    out.push(report(tool, 'MCPG114', `tool ${name}: http.path ${JSON.stringify(binding.path)} ${template.problem}`, ['http', 'path']));
  } else {
    const inPath = params.filter((p) => p.in === 'path');
    for (const v of template.variables) {
      if (!inPath.some((p) => p.name === v)) out.push(report(tool, 'MCPG114', `tool ${name}: http.path has "{${v}}" but no param with \`in: path\` fills it (e.g. \`params: { ${v}: path }\`)`, ['http', 'path']));
    }
    for (const p of inPath) {
      if (!template.variables.includes(p.name)) out.push(report(tool, 'MCPG114', `tool ${name}: path param "${p.name}" has no "{${p.name}}" in http.path ${JSON.stringify(binding.path)}`, ['http', 'params', p.property], 'key'));
    }
  }
  const body = httpBody(binding);
  if (body !== undefined) {
    const at = typeof binding.body === 'string' ? [] : ['property'];
    if (!declared.includes(body.property)) unknown(body.property, ['body', ...at], 'value');
    if (params.some((p) => p.property === body.property)) out.push(report(tool, 'MCPG133', `tool ${name}: input property "${body.property}" is both the body and a param`, ['http', 'body', ...at]));
    if (body.files !== undefined && !/^multipart\//i.test(body.contentType)) out.push(report(tool, 'MCPG135', `tool ${name}: body \`files\` are sent as file parts of a multipart body; the content type is ${JSON.stringify(body.contentType)}`, ['http', 'body', 'files'], 'key'));
    checkFiles(tool, body.property, body.files ?? [], out);
  }
  (binding.security ?? []).forEach((scheme, i) => {
    if (schemes.includes(scheme)) return;
    const hint = didYouMean(scheme, schemes);
    const suffix = hint !== undefined ? `; did you mean "${hint}"?` : schemes.length > 0 ? `; declared: ${schemes.join(', ')}` : '; the spec declares none';
    out.push(report(tool, 'MCPG117', `tool ${name}: http.security names "${scheme}", which is not declared under upstream.security${suffix}`, ['http', 'security', i]));
  });
  return out;
}

/** Each `files` entry is a property of the body's schema (when the body schema lists its properties). */
function checkFiles(tool: Located<RawTool>, property: string, files: readonly string[], out: Diagnostic[]): void {
  const props = tool.value.input?.properties;
  const schema = isRecord(props) ? props[property] : undefined;
  const fields = isRecord(schema) && isRecord(schema.properties) ? Object.keys(schema.properties) : undefined;
  if (fields === undefined) return; // a `$ref` or composed body: its fields are not read here
  files.forEach((file, i) => {
    if (fields.includes(file)) return;
    out.push(report(tool, 'MCPG115', `tool ${JSON.stringify(tool.value.name)}: body file field "${file}" is not a property of input property "${property}" (${fields.join(', ') || 'none'})`, ['http', 'body', 'files', i]));
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
