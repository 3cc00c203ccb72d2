// @mcpgen/runtime/shared: what the generator and the runtime both use, kept here so that a deployed
// server never needs the generator (the generator depends on the runtime, never the reverse).
export { createAjv, createAjvFor, type Ajv2020, type AnyAjv } from './ajv.js';
export { DIALECTS, DIALECT_URIS, dialectOf, type Dialect } from './dialects.js';
export { absoluteUriProblem, expandUriTemplate, matchUriTemplate, parseUriTemplate, type TemplateParse, type TemplateVariable } from './uri-template.js';
export { checkParamHeaders, decodeHeaderValue, encodeHeaderValue, paramHeadersFor, type HeaderDeclaration } from './header-values.js';
export { didYouMean, editDistance } from './suggest.js';
export { UI_EXTENSION_ID, UI_LEGACY_RESOURCE_URI_KEY, UI_MIME_TYPE } from './mcp-apps.js';
export { applyDefaults, defaultsPlan, propertyDefault, type DefaultsPlan } from './input-defaults.js';
export { parseRate, RATE_FORMAT, type Rate } from './rate.js';
