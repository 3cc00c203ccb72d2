// @mcpgen/runtime/shared: what the generator and the runtime both use, kept here so that a deployed
// server never needs the generator (the generator depends on the runtime, never the reverse).
export { createAjv, type Ajv2020 } from './ajv.js';
export { absoluteUriProblem, expandUriTemplate, matchUriTemplate, parseUriTemplate, type TemplateParse, type TemplateVariable } from './uri-template.js';
export { checkParamHeaders, decodeHeaderValue, encodeHeaderValue, paramHeadersFor, type HeaderDeclaration } from './header-values.js';
