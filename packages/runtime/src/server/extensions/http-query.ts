// A query parameter's value on the wire in its OpenAPI style (3.x `style` / `explode`; Swagger 2.0's
// `collectionFormat` maps onto the same): form (exploded or comma-joined), spaceDelimited,
// pipeDelimited and deepObject; or, for OpenAPI 3 `content: {application/json: …}`, one JSON text. Keys and
// values are percent-encoded by URLSearchParams.
import type { HttpParamBinding } from './http-types.js';

const DELIMITERS: Readonly<Record<string, string>> = { form: ',', spaceDelimited: ' ', pipeDelimited: '|' };

/** Appends one parameter's pairs. OpenAPI's default for query parameters is form style, exploded. */
export function appendQuery(query: URLSearchParams, p: HttpParamBinding, value: unknown): void {
  const style = p.style ?? 'form';
  const explode = p.explode ?? style === 'form';
  if (p.contentType !== undefined) return void query.append(p.name, JSON.stringify(value));
  if (style === 'deepObject') return void deepObject(query, p.name, value);
  if (Array.isArray(value)) {
    if (explode) for (const v of value) query.append(p.name, scalar(v));
    else query.append(p.name, value.map(scalar).join(DELIMITERS[style] ?? ','));
    return;
  }
  if (isRecord(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    // form, exploded: each property its own key (`role=admin&first=Alex`); otherwise `key,value` pairs joined.
    if (explode && style === 'form') for (const [k, v] of entries) query.append(k, scalar(v));
    else query.append(p.name, entries.flatMap(([k, v]) => [k, scalar(v)]).join(DELIMITERS[style] ?? ','));
    return;
  }
  query.append(p.name, scalar(value));
}

/** `name[key]=value`, nested objects one bracket deeper; array items repeat the key. */
function deepObject(query: URLSearchParams, key: string, value: unknown): void {
  if (isRecord(value)) {
    for (const [k, v] of Object.entries(value)) if (v !== undefined) deepObject(query, `${key}[${k}]`, v);
  } else if (Array.isArray(value)) for (const v of value) query.append(key, scalar(v));
  else query.append(key, scalar(value));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function scalar(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}
