// `http:` bindings and the `upstream:` section → the IR the proxy file is emitted from. The spec's short
// forms are made whole by common/http-binding.ts, the reading the rules checked.
import { envName, httpBody, httpParams } from '../common/http-binding.js';
import type { RawTool } from '../validate/spec-types.js';
import type { SpecView } from '../validate/view.js';
import type { HttpBindingModel, UpstreamAuthModel, UpstreamModel } from './ir.js';

export function httpBindingModel(tool: RawTool): HttpBindingModel | undefined {
  const binding = tool.http;
  if (binding === undefined) return undefined;
  const body = httpBody(binding);
  return {
    method: binding.method,
    path: binding.path,
    params: httpParams(binding).map(({ property, ...p }) => ({ arg: property, ...p })),
    ...(body !== undefined ? { body: { arg: body.property, contentType: body.contentType, ...(body.files !== undefined ? { files: body.files } : {}) } } : {}),
    ...(binding.security !== undefined ? { security: binding.security } : {}),
  };
}

/** Present when a tool is bound: an `upstream:` without bound tools has nothing to serve. */
export function upstreamModel(view: SpecView, server: string): UpstreamModel | undefined {
  if (!view.tools.some((t) => t.value.http !== undefined)) return undefined;
  const u = view.upstream?.value ?? {};
  const schemes = Object.entries(u.security ?? {}).map(([id, s]) => {
    const env = s.env ?? envName(server, id);
    const auth: UpstreamAuthModel = s.type === 'apiKey' ? { type: 'apiKey', in: s.in!, name: s.name!, env } : s.type === 'oauth2' ? { type: 'oauth2', tokenUrl: s.tokenUrl!, env } : { type: s.type, env };
    return { id, auth };
  });
  const settings = (['timeoutMs', 'maxBytes', 'retries', 'retryDelayMs', 'maxRetryDelayMs'] as const).flatMap((k) => (u[k] !== undefined ? [[k, u[k]] as const] : []));
  return { ...(u.baseUrl !== undefined ? { baseUrl: u.baseUrl } : {}), baseUrlEnv: envName(server, 'BASE_URL'), schemes, ...Object.fromEntries(settings) };
}
