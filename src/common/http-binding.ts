// A tool's `http:` binding in its short spec form (`petId: path`, `body: pet`) made whole, for the
// rules that check it and the model that hands it to the runtime's proxy. One reading for both.
import type { HttpParamLocation, RawHttpBinding, RawHttpBody } from '../validate/spec-types.js';

export interface HttpParam {
  /** The input property that holds the value. */
  readonly property: string;
  readonly in: HttpParamLocation;
  /** The name on the wire. */
  readonly name: string;
  readonly style?: 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
  readonly explode?: boolean;
  readonly contentType?: 'application/json';
}

export const DEFAULT_CONTENT_TYPE = 'application/json';

export function httpParams(binding: RawHttpBinding): HttpParam[] {
  return Object.entries(binding.params ?? {}).map(([property, p]) =>
    typeof p === 'string'
      ? { property, in: p, name: property }
      : { property, in: p.in, name: p.name ?? property, ...(p.style !== undefined ? { style: p.style } : {}), ...(p.explode !== undefined ? { explode: p.explode } : {}), ...(p.contentType !== undefined ? { contentType: p.contentType } : {}) },
  );
}

export function httpBody(binding: RawHttpBinding): Required<Pick<RawHttpBody, 'property' | 'contentType'>> & Pick<RawHttpBody, 'files'> | undefined {
  const body = binding.body;
  if (body === undefined) return undefined;
  if (typeof body === 'string') return { property: body, contentType: DEFAULT_CONTENT_TYPE };
  return { property: body.property, contentType: body.contentType ?? DEFAULT_CONTENT_TYPE, ...(body.files !== undefined ? { files: body.files } : {}) };
}

/** The `{name}` variables of a path template in order, or why it is not one. */
export function pathVariables(path: string): { readonly variables: string[] } | { readonly problem: string } {
  if (!path.startsWith('/')) return { problem: 'does not start with "/"' };
  const variables: string[] = [];
  const re = /\{([^{}]*)\}|[{}]/g;
  for (let m = re.exec(path); m !== null; m = re.exec(path)) {
    if (m[1] === undefined) return { problem: `has an unmatched "${m[0]}" at character ${m.index + 1}` };
    if (m[1] === '') return { problem: 'has an empty "{}"' };
    variables.push(m[1]);
  }
  return { variables };
}

/** `<SERVER>_<SUFFIX>` in upper case, every run of other characters one `_`: the proxy's environment variables. */
export function envName(server: string, suffix: string): string {
  return `${server}_${suffix}`.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}
