import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check } from '../../src/pipeline.js';
import { CODES } from '../../src/diagnostics/codes.js';
import type { ProviderTarget } from '@mcpgen/runtime/shared/provider-rules';
import { checkText, ROOT } from '../helpers.js';

const FIXTURES = join(ROOT, 'test/fixtures/invalid');

interface Want {
  readonly code: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
  readonly file?: string;
  readonly path?: string;
}

// One invalid fixture per rule, and the exact diagnostic it must produce (and nothing else).
const CASES: Record<string, Want[]> = {
  'MCPG001-syntax.yaml': [{ code: 'MCPG001', line: 5, column: 1, message: 'Flow sequence' }],
  // Issue 24: one stray tab gave six (in a larger spec twelve) MCPG001, one per line after it.
  'MCPG001-tab.yaml': [{ code: 'MCPG001', line: 10, column: 1, message: 'a tab indents this line: YAML indents with spaces only' }],
  'MCPG001-tag.yaml': [{ code: 'MCPG001', line: 7, column: 12, message: 'unknown YAML tag "!Ref"' }],
  'MCPG002-duplicate-key.yaml': [{ code: 'MCPG002', line: 5, column: 3, message: 'duplicate key' }],
  'MCPG003-unknown-key.yaml': [{ code: 'MCPG003', line: 7, column: 5, message: 'unknown key "descripton" in "tools[0]"; did you mean "description"?', path: 'tools[0].descripton' }],
  'MCPG004-wrong-type.yaml': [{ code: 'MCPG004', line: 7, column: 15, message: '"tools[0].progress" must be a boolean, got the string "yes"' }],
  'MCPG005-missing-key.yaml': [
    { code: 'MCPG005', line: 3, column: 3, message: 'missing required key "version" in "server"' },
    { code: 'MCPG005', line: 5, column: 5, message: 'missing required key "name" in "resources[0]"' },
  ],
  'MCPG006-enum.yaml': [{ code: 'MCPG006', line: 6, column: 15, message: '"cache.cacheScope" is "everyone"; allowed: "public", "private"' }],
  'MCPG007-alias-bomb.yaml': [{ code: 'MCPG007', line: 6, column: 29, message: 'refusing to expand YAML aliases: they would add more than 100,000 values (alias *d adds 11,111)' }],
  'MCPG007-alias-cycle.yaml': [{ code: 'MCPG007', line: 9, column: 14, message: 'refusing to expand YAML alias *node: it sits inside the node it names' }],
  'MCPG008-include-missing.yaml': [{ code: 'MCPG008', line: 6, column: 5, message: 'cannot include "does-not-exist.yaml": no such file' }],
  'MCPG008-include-outside.yaml': [{ code: 'MCPG008', line: 6, column: 5, message: 'include "../../helpers.ts" reaches outside the project; includes must stay inside the spec\'s project "test/fixtures/invalid/" (the directory of the root spec)' }],
  'MCPG009-version.yaml': [{ code: 'MCPG009', line: 6, column: 12, message: '"protocol.version" is "2025-11-25"; supported: "2026-07-28"' }],
  'MCPG010-tool-name.yaml': [{ code: 'MCPG010', line: 6, column: 11, message: 'tool name "get weather" is invalid: " " is not allowed' }],
  'MCPG011-duplicate-tool.yaml': [{ code: 'MCPG011', line: 7, column: 11, message: 'duplicate tool name "search" (first declared at test/fixtures/invalid/MCPG011-duplicate-tool.yaml:6:11)' }],
  'MCPG012-identifier-collision.yaml': [{ code: 'MCPG012', line: 7, column: 11, message: 'tool "get-user" and tool "get_user" (test/fixtures/invalid/MCPG012-identifier-collision.yaml:6:11) both become the TypeScript method "getUser"' }],
  'MCPG013-header-token.yaml': [{ code: 'MCPG013', line: 10, column: 47, message: 'x-mcp-header "Re gion" has " "' }],
  'MCPG014-header-duplicate.yaml': [{ code: 'MCPG014', line: 11, column: 45, message: 'x-mcp-header "Region" duplicates "region" (case-insensitive) in tool execute_sql' }],
  // Issue 24: a $ref to an object was reported as `no "type"`.
  'MCPG015-header-ref-object.yaml': [{ code: 'MCPG015', line: 15, column: 17, message: 'x-mcp-header "Region" is on a property with "$ref": "#/$defs/Region", which resolves to type "object" (the header is read from the property\'s own "type", not through $ref); it needs exactly one of string, integer, boolean in tool "t"' }],
  'MCPG015-header-number.yaml': [{ code: 'MCPG015', line: 10, column: 16, message: 'number is forbidden' }],
  'MCPG016-header-unreachable.yaml': [{ code: 'MCPG016', line: 12, column: 34, message: 'not through "items"' }],
  'MCPG017-header-secret.yaml': [{ code: 'MCPG017', line: 10, column: 47, message: 'x-mcp-header "Api-Key" mirrors "apiKey", which looks secret' }],
  'MCPG018-input-not-object.yaml': [{ code: 'MCPG018', line: 8, column: 13, message: 'must have "type: object" at its root' }],
  'MCPG110-dialect.yaml': [{ code: 'MCPG110', line: 8, column: 16, message: 'input schema of tool "t" names the JSON Schema dialect "http://json-schema.org/draft-04/schema#", which mcpgen does not support; use one of https://json-schema.org/draft/2020-12/schema, https://json-schema.org/draft/2019-09/schema, http://json-schema.org/draft-07/schema#, or leave "$schema" out for 2020-12', path: 'tools[0].input.$schema' }],
  'MCPG112-annotation.yaml': [{ code: 'MCPG112', line: 9, column: 7, message: 'annotation "readonlyHnt" of tool "t" is not an MCP tool hint: it is sent as written, but hosts do not read it; did you mean "readOnlyHint"?', path: 'tools[0].annotations.readonlyHnt' }],
  'MCPG113-meta-reserved.yaml': [
    { code: 'MCPG113', line: 7, column: 5, message: '_meta key "dev.mcp/owner" is under a prefix MCP reserves', path: 'server._meta["dev.mcp/owner"]' },
    { code: 'MCPG113', line: 12, column: 7, message: '_meta key "io.modelcontextprotocol/ui" is under a prefix MCP reserves', path: 'tools[0]._meta["io.modelcontextprotocol/ui"]' },
  ],
  'MCPG111-unknown-format.yaml': [{ code: 'MCPG111', line: 10, column: 39, message: 'unknown format "timestamp" in input schema of tool "t" is not checked (values are accepted as if it were absent); known formats: ', path: 'tools[0].input.properties.when.format' }],
  'MCPG019-type-int.yaml': [{ code: 'MCPG019', line: 10, column: 24, message: '"int" is not a JSON Schema type in input schema of tool "t"; did you mean "integer"?', path: 'tools[0].input.properties.count.type' }],
  'MCPG019-pattern.yaml': [{ code: 'MCPG019', line: 10, column: 40, message: 'pattern "([A-Z]+" cannot be used in input schema of tool "t": Unterminated group', path: 'tools[0].input.properties.code.pattern' }],
  'MCPG020-unknown-keyword.yaml': [{ code: 'MCPG020', line: 10, column: 29, message: 'unknown JSON Schema keyword "minimun" in input schema of tool "t"; did you mean "minimum"?' }],
  'MCPG020-header-near-miss.yaml': [{ code: 'MCPG020', line: 10, column: 33, message: 'unknown keyword "x-mcp-headers" in input schema of tool "t": no header is mirrored; did you mean "x-mcp-header"?' }],
  'MCPG021-required.yaml': [{ code: 'MCPG021', line: 11, column: 24, message: '"required" names "country", which is not among the properties (city)' }],
  'MCPG022-default.yaml': [{ code: 'MCPG022', line: 10, column: 53, message: 'default value 0 is invalid against its schema' }],
  'MCPG023-ref.yaml': [{ code: 'MCPG023', line: 10, column: 24, message: '$ref "#/$defs/Unit" does not resolve' }],
  'MCPG024-uri.yaml': [{ code: 'MCPG024', line: 6, column: 10, message: 'resource URI "/relative/path" is not an absolute URI' }],
  'MCPG025-template.yaml': [{ code: 'MCPG025', line: 6, column: 18, message: 'unclosed "{"' }],
  'MCPG026-template-var.yaml': [{ code: 'MCPG026', line: 6, column: 18, message: 'variable "table" appears twice' }],
  'MCPG027-prompt-arg.yaml': [{ code: 'MCPG027', line: 9, column: 15, message: 'argument "topic" appears twice in prompt "p"' }],
  'MCPG028-icon.yaml': [{ code: 'MCPG028', line: 6, column: 12, message: 'icon src "javascript:alert(1)"' }],
  'MCPG029-elicit.yaml': [{ code: 'MCPG029', line: 14, column: 15, message: 'property "address" must have type string' }],
  'MCPG030-capability.yaml': [{ code: 'MCPG030', line: 6, column: 10, message: 'capabilities.tools is false, but the spec declares 1 tool(s)' }],
  'MCPG032-self-include.yaml': [{ code: 'MCPG032', line: 6, column: 5, message: 'include "MCPG032-self-include.yaml" is this spec itself; it is skipped', path: 'include[0]' }],
  'MCPG040-ref-cycle.yaml': [{ code: 'MCPG040', line: 6, column: 24, message: '$ref cycle "#/$defs/B" → "#/$defs/A" (test/fixtures/invalid/MCPG040-ref-cycle.yaml:7:24) → back to "#/$defs/B" never reaches a property or an item', path: '$defs.A.allOf[0].$ref' }],
  'MCPG041-elicit-proto.yaml': [{ code: 'MCPG041', line: 8, column: 7, message: 'elicitation "__proto__" of tool "t": the key "__proto__" cannot carry an answer', path: 'tools[0].elicit.__proto__' }],
  'MCPG042-output-not-object.yaml': [{ code: 'MCPG042', line: 9, column: 13, message: 'output schema of tool "t" must describe a JSON object at its root (structuredContent is one, for every client), but it allows "#/$defs/Tickets", which allows type "array"' }],
  'MCPG031-defs.yaml': [{ code: 'MCPG031', line: 2, column: 3, file: 'test/fixtures/invalid/MCPG031/part.yaml', message: '$defs "Shared" is already defined at test/fixtures/invalid/MCPG031-defs.yaml:8:11' }],
  'MCPG050-header-prefix.yaml': [{ code: 'MCPG050', line: 10, column: 48, message: 'x-mcp-header "Mcp-Param-Order-Id" carries the "Mcp-Param-" prefix the transport adds itself (the header would be "Mcp-Param-Mcp-Param-Order-Id"); write "Order-Id" in tool "t"' }],
  'MCPG051-format-uri.yaml': [
    { code: 'MCPG051', line: 5, column: 15, message: 'server.websiteUrl "www.example.com/docs" is not an absolute URI (format: uri): it has no scheme', path: 'server.websiteUrl' },
    { code: 'MCPG051', line: 12, column: 14, message: 'url of elicitation "checkout" "/checkout?step=1" is not an absolute URI (format: uri): it has no scheme', path: 'tools[0].elicit.checkout.url' },
    { code: 'MCPG051', line: 14, column: 14, message: 'icon src "icons/pay.png" is not an absolute URI (format: uri): it has no scheme', path: 'tools[0].icons[0].src' },
  ],
  'MCPG070-undeclared-scope.yaml': [{ code: 'MCPG070', line: 9, column: 14, message: 'scope "files.raed" is not declared under auth.scopes; did you mean "files.read"?', path: 'tools[0].scopes[0]' }],
  'MCPG071-no-issuer.yaml': [{ code: 'MCPG071', line: 4, column: 3, message: '`auth` needs at least one authorization server' }],
  'MCPG072-issuer.yaml': [{ code: 'MCPG072', line: 6, column: 7, message: 'authorization server "http://auth.example.com" uses http on a non-loopback host (https is required)' }],
  'MCPG073-resource.yaml': [{ code: 'MCPG073', line: 5, column: 13, message: 'auth.resource "https://mcp.example.com/mcp#frag" has a fragment' }],
  'MCPG074-scopes-without-auth.yaml': [{ code: 'MCPG074', line: 5, column: 5, message: 'this entry lists `scopes`, but the spec has no `auth:` section' }],
  'MCPG075-offline-access.yaml': [{ code: 'MCPG075', line: 6, column: 5, message: 'scope "offline_access" is `offline_access`' }],
  'MCPG076-documentation.yaml': [{ code: 'MCPG076', line: 5, column: 18, message: 'auth.documentation "docs/auth.md" is not an absolute http(s) URL' }],
  'MCPG080-before-task.yaml': [{ code: 'MCPG080', line: 11, column: 45, message: 'task.beforeTask names "user_nam", which is not one of its elicit keys; did you mean "user_name"?', path: 'tools[0].task.beforeTask[0]' }],
  'MCPG081-poll-interval.yaml': [{ code: 'MCPG081', line: 9, column: 23, message: 'task.pollIntervalMs (60000) is longer than task.ttlMs (5000)' }],
  'MCPG082-never-settings.yaml': [{ code: 'MCPG082', line: 9, column: 7, message: 'never runs as a task, so task.ttlMs has no effect' }],
  'MCPG083-timeout-ttl.yaml': [{ code: 'MCPG083', line: 7, column: 16, message: 'timeoutMs (120000) is longer than task.ttlMs (60000)' }],
  'MCPG180-retry-destructive.yaml': [{ code: 'MCPG180', line: 9, column: 7, message: 'task.retry re-runs it when its worker is lost, but its annotations say it is destructive and not idempotent', path: 'tools[0].task.retry' }],
  'MCPG090-ui-unknown.yaml': [{ code: 'MCPG090', line: 7, column: 23, message: 'tool "typo": ui "ui://apps/veiw" names no app declared under `apps` (did you mean "ui://apps/view"?)', path: 'tools[1].ui' }],
  'MCPG091-html-missing.yaml': [{ code: 'MCPG091', line: 6, column: 11, message: 'html "MCPG09x/missing.html": no such file', path: 'apps[0].html' }],
  'MCPG092-html-too-large.yaml': [{ code: 'MCPG092', line: 6, column: 11, message: 'html "MCPG09x/too-large.html" is 1048577 bytes; views are embedded in the generated server and sent whole, at most 1048576 bytes' }],
  'MCPG093-csp-origin.yaml': [{ code: 'MCPG093', line: 8, column: 49, message: 'csp.connectDomains entry "https://api.example.com/v1/" is not an origin: it has a path', path: 'apps[0].csp.connectDomains[1]' }],
  'MCPG094-app-unused.yaml': [{ code: 'MCPG094', line: 4, column: 10, message: 'app "ui://apps/view" is not the `ui` of any tool' }],
  'MCPG095-skills-missing.yaml': [{ code: 'MCPG095', line: 4, column: 9, message: 'skills folder "MCPG095-no-such-folder": no such folder', path: 'skills' }],
  'MCPG096-skill-frontmatter.yaml': [{ code: 'MCPG096', line: 2, column: 7, file: 'test/fixtures/invalid/MCPG096/report/SKILL.md', message: 'name "reports" must equal the skill\'s folder name "report"', path: 'name' }],
  'MCPG097-skill-limits.yaml': [{ code: 'MCPG097', line: 1, column: 1, file: 'test/fixtures/invalid/MCPG097/big/SKILL.md', message: 'skill "big" has 513 files' }],
  'MCPG098-skill-symlink.yaml': [{ code: 'MCPG098', line: 4, column: 9, message: 'skill "linked": "linked/outside" is a symbolic link (never followed)' }],
  'MCPG190-valid-2020-12.yaml': [{ code: 'MCPG190', line: 10, column: 20, message: 'input schema of tool "t": missing type "object" for keyword "properties" (strictTypes); valid JSON Schema 2020-12, served as written', path: 'tools[0].input.properties.address.properties' }],
  'MCPG114-http-path.yaml': [
    { code: 'MCPG114', line: 7, column: 32, message: 'tool "getPet": http.path has "{petId}" but no param with `in: path` fills it', path: 'tools[0].http.path' },
    { code: 'MCPG114', line: 7, column: 59, message: 'tool "getPet": path param "id" has no "{id}" in http.path "/pets/{petId}"', path: 'tools[0].http.params.id' },
  ],
  'MCPG115-http-property.yaml': [{ code: 'MCPG115', line: 11, column: 9, message: 'tool "findPets": http reads input property "staus", which the tool\'s input does not declare; did you mean "status"?', path: 'tools[0].http.params.staus' }],
  'MCPG116-http-path-optional.yaml': [{ code: 'MCPG116', line: 11, column: 9, message: 'path param "petId" must be listed in the input\'s `required`', path: 'tools[0].http.params.petId' }],
  'MCPG117-http-security.yaml': [{ code: 'MCPG117', line: 9, column: 50, message: 'http.security names "apikey", which is not declared under upstream.security; did you mean "api_key"?', path: 'tools[0].http.security[0]' }],
  'MCPG118-no-base-url.yaml': [{ code: 'MCPG118', line: 5, column: 5, message: '1 tool(s) are bound with `http:` but no upstream.baseUrl is given: set PETS_BASE_URL when the server runs', path: 'tools[0].http' }],
  'MCPG119-upstream-conflict.yaml': [{ code: 'MCPG119', line: 2, column: 3, file: 'test/fixtures/invalid/MCPG119/b.yaml', message: 'upstream.baseUrl differs from the value at test/fixtures/invalid/MCPG119/a.yaml:2:12', path: 'upstream.baseUrl' }],
  'MCPG133-http-twice.yaml': [{ code: 'MCPG133', line: 12, column: 9, message: 'params "trace" and "traceId" both send header "x-trace"', path: 'tools[0].http.params.traceId' }],
  'MCPG134-scheme-fields.yaml': [{ code: 'MCPG134', line: 6, column: 5, message: 'upstream.security "key" (apiKey) needs `name`', path: 'upstream.security.key' }],
  'MCPG135-http-style.yaml': [{ code: 'MCPG135', line: 11, column: 28, message: 'param "petId" is in path; `style` and `explode` apply to query params only', path: 'tools[0].http.params.petId.style' }],
  'MCPG136-base-url.yaml': [{ code: 'MCPG136', line: 4, column: 12, message: 'upstream.baseUrl "ftp://pets.example.com" uses ftp (http or https is needed)', path: 'upstream.baseUrl' }],
  'MCPG150-rate-limit.yaml': [
    { code: 'MCPG150', line: 5, column: 12, message: 'rateLimit "100/25h" is out of bounds (requests/duration, e.g. 100/60, 100/1m; 1 s to 24 h)', path: 'rateLimit' },
    { code: 'MCPG150', line: 8, column: 16, message: 'tool "search": rateLimit "0/1m" is out of bounds', path: 'tools[0].rateLimit' },
  ],
  'MCPG151-override-unknown.yaml': [{ code: 'MCPG151', line: 6, column: 5, message: 'overrides.tools names tool "listPet", which no file of this spec declares; did you mean "listPets"?', path: 'overrides.tools.listPet' }],
  'MCPG152-override-same-file.yaml': [{ code: 'MCPG152', line: 7, column: 5, message: 'tool "ping" is declared in this file: change it where it is declared', path: 'overrides.tools.ping' }],
  'MCPG160-toolset-member.yaml': [{ code: 'MCPG160', line: 10, column: 26, message: 'toolset "issues" lists tool "create_isue", which the spec does not declare; did you mean "create_issue"?', path: 'toolsets.issues.tools[1]' }],
  'MCPG161-toolset-all.yaml': [{ code: 'MCPG161', line: 8, column: 3, message: 'toolset "all" is reserved', path: 'toolsets.all' }],
  'MCPG162-toolset-empty.yaml': [{ code: 'MCPG162', line: 10, column: 3, message: 'toolset "later" has no members', path: 'toolsets.later' }],
  'MCPG163-discovery-no-toolsets.yaml': [{ code: 'MCPG163', line: 7, column: 1, message: '`discovery:` needs `toolsets:`', path: 'discovery' }],
  'MCPG164-discovery-initial.yaml': [{ code: 'MCPG164', line: 14, column: 13, message: 'discovery.initial names toolset "isues", which the spec does not declare; did you mean "issues"?', path: 'discovery.initial[0]' }],
  'MCPG165-discovery-tool-name.yaml': [{ code: 'MCPG165', line: 7, column: 11, message: 'tool "enable_toolset" has the name (or client method name) of a tool the server adds', path: 'tools[1].name' }],
  'MCPG166-discovery-all-initial.yaml': [{ code: 'MCPG166', line: 11, column: 1, message: 'every toolset is initial', path: 'discovery' }],
  'MCPG167-openai-strict.yaml': [
    { code: 'MCPG167', line: 10, column: 32, message: 'tool "search": OpenAI strict mode drops this: `minLength`: not in strict mode\'s supported subset', path: 'tools[0].input.properties.query.minLength' },
    { code: 'MCPG167', line: 11, column: 9, message: 'optional "limit" is sent as required and nullable; a null is mapped back to "not given" before the handler', path: 'tools[0].input.properties.limit' },
  ],
  'MCPG168-anthropic.yaml': [{ code: 'MCPG168', line: 12, column: 7, message: 'tool "lookup": Anthropic drops this: Anthropic refuses `anyOf` at the root of input_schema', path: 'tools[0].input.anyOf' }],
  'MCPG169-gemini.yaml': [
    { code: 'MCPG169', line: 7, column: 5, message: '$defs "Unit" (used by tool "convert"): Gemini changes this: `const`', path: '$defs.Unit.const' },
    { code: 'MCPG169', line: 13, column: 17, message: 'the target is inlined', path: 'tools[0].input.properties.unit.$ref' },
    { code: 'MCPG169', line: 14, column: 9, message: 'Gemini changes this: Gemini refuses parameter name "user-id" (a letter or "_" first, then letters, digits and "_", 64 at most): the bridge sends "user_id" and maps it back', path: 'tools[0].input.properties.user-id' },
    { code: 'MCPG169', line: 15, column: 17, message: 'a type list is sent as `anyOf`', path: 'tools[0].input.properties.note.type' },
  ],
  'MCPG170-provider-name.yaml': [
    { code: 'MCPG170', line: 6, column: 11, message: 'tool "files.read": OpenAI strict mode refuses this function name (^[a-zA-Z0-9_-]{1,64}$): the bridge sends "files_read" and maps it back', path: 'tools[0].name' },
    { code: 'MCPG170', line: 7, column: 11, message: 'tool "2fa_check": Gemini refuses this function name', path: 'tools[1].name' },
  ],
  'MCPG200-example-arguments.yaml': [{ code: 'MCPG200', line: 11, column: 31, message: 'example "two and three" of tool "add": arguments.b is the string "3", but the input schema says it must be number', path: 'tools[0].examples[0].arguments.b' }],
  'MCPG201-example-result.yaml': [{ code: 'MCPG201', line: 15, column: 24, message: 'example 1 of tool "add": result.sum is the string "five", but the output schema says it must be number', path: 'tools[0].examples[0].result.sum' }],
  'MCPG202-example-name.yaml': [{ code: 'MCPG202', line: 8, column: 15, message: 'example name "plain" is used twice in prompt "greet" (first at test/fixtures/invalid/MCPG202-example-name.yaml:7:15)', path: 'prompts[0].examples[1].name' }],
  'MCPG099-skill-scheme.yaml': [{ code: 'MCPG099', line: 6, column: 12, message: 'resource "skill://notes/SKILL.md" uses the skill:// scheme', path: 'resources[0].uri' }],
};

// MCPG097's skill needs 513 files: 512 one-byte fillers are written here rather than kept in git.
const FILLER = join(FIXTURES, 'MCPG097/big/filler');
beforeAll(() => {
  mkdirSync(FILLER, { recursive: true });
  for (let i = 0; i < 512; i++) writeFileSync(join(FILLER, `${i}.txt`), 'x');
});
afterAll(() => rmSync(FILLER, { recursive: true, force: true }));

const ACROSS_SPECS = ['MCPG100', 'MCPG101', 'MCPG102'];
/** Fixtures checked with `--target` (the provider rules run only when asked for). */
const TARGETS: Readonly<Record<string, readonly ProviderTarget[]>> = {
  'MCPG167-openai-strict.yaml': ['openai-strict'],
  'MCPG168-anthropic.yaml': ['anthropic'],
  'MCPG169-gemini.yaml': ['gemini'],
  'MCPG170-provider-name.yaml': ['openai-strict', 'gemini'],
};
// `import openapi` reads OpenAPI descriptions, not specs: its fixtures are test/fixtures/openapi/MCPG13x-*.yaml.
const IMPORT_OPENAPI = ['MCPG130', 'MCPG131', 'MCPG132', 'MCPG191'];

describe('one fixture per rule', () => {
  it('covers every diagnostic code', () => {
    const covered = new Set(Object.values(CASES).flatMap((ws) => ws.map((w) => w.code)));
    // Codes no single spec can raise (two specs in one run; --check output): test/write/repo-fit.test.ts.
    for (const code of ACROSS_SPECS) expect(readFileSync(join(ROOT, 'test/write/repo-fit.test.ts'), 'utf8'), code).toContain(code);
    for (const code of IMPORT_OPENAPI) expect(readFileSync(join(ROOT, 'test/import/openapi-diagnostics.test.ts'), 'utf8'), code).toContain(code);
    expect([...covered, ...ACROSS_SPECS, ...IMPORT_OPENAPI].sort()).toEqual(Object.keys(CODES).sort());
  });

  for (const [fixture, wants] of Object.entries(CASES)) {
    it(`${fixture} → ${wants.map((w) => `${w.code}@${w.line}:${w.column}`).join(', ')}`, () => {
      const file = join(FIXTURES, fixture);
      const result = check([file], ROOT, undefined, undefined, TARGETS[fixture]);
      const got = result.diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column, file: d.file, path: d.path, message: d.message }));
      expect(got).toHaveLength(wants.length);
      wants.forEach((w, i) => {
        const d = got[i]!;
        expect({ code: d.code, line: d.line, column: d.column }).toEqual({ code: w.code, line: w.line, column: w.column });
        expect(d.message).toContain(w.message);
        expect(d.file).toBe(w.file ?? `test/fixtures/invalid/${fixture}`);
        if (w.path !== undefined) expect(d.path).toBe(w.path);
      });
      expect(result.models).toHaveLength(0 + (wants.every((w) => CODES[w.code as keyof typeof CODES].severity === 'warning') ? 1 : 0));
    });
  }
});

describe('patterns V8 parses but cannot run', () => {
  // Found by `npm run fuzz`: a 50,000-character pattern compiles in ajv, then throws "Regular
  // expression too large" the first time a default is checked against it.
  it('are reported where they stand, not thrown', () => {
    const pattern = 'x'.repeat(50_000);
    const result = checkText(`mcpgen: 1\nserver: { name: p, version: 1.0.0 }\ntools:\n  - name: t\n    input:\n      type: object\n      properties:\n        id: { type: string, pattern: ${pattern}, default: x }\n        tags: { type: object, patternProperties: { "${pattern}": { type: string } } }\n`);
    expect(result.diagnostics.map((d) => [d.code, d.line, d.path, d.message.endsWith('cannot be used in input schema of tool "t": Regular expression too large')])).toEqual([
      ['MCPG019', 8, 'tools[0].input.properties.id.pattern', true],
      ['MCPG019', 9, `tools[0].input.properties.tags.patternProperties.${pattern}`, true],
    ]);
  });

  it('point at the pattern value even in a property that is named patternProperties', () => {
    const result = checkText('mcpgen: 1\nserver: { name: p, version: 1.0.0 }\ntools:\n  - name: t\n    input:\n      type: object\n      properties:\n        patternProperties: { type: string, pattern: "(" }\n');
    expect(result.diagnostics.map((d) => [d.code, d.line, d.column, d.path])).toEqual([['MCPG019', 8, 53, 'tools[0].input.properties.patternProperties.pattern']]);
  });
});

describe('YAML the spec format does not accept', () => {
  it('refuses 998 aliases of one 30,000-element list before expanding any of them', () => {
    const list = Array.from({ length: 30_000 }, () => 'abcd').join(', ');
    const refs = Array.from({ length: 998 }, () => '  - *big').join('\n');
    const text = `mcpgen: 1\nserver: { name: s, version: "1" }\nbig: &big [${list}]\nrefs:\n${refs}\n`;
    expect(text.length).toBeGreaterThan(150_000);
    const result = checkText(text);
    // The bound is crossed at the fourth alias (4 × 30,001 values > 100,000): reported there.
    expect(result.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([['MCPG007', 8, 5]]);
    expect(result.diagnostics[0]!.message).toContain('alias *big adds 30,001');
  });

  it('expands aliases up to the bound: a shared enum used by many tools is fine', () => {
    const tools = Array.from({ length: 300 }, (_, i) => `  - name: t${i}\n    input: { type: object, properties: { unit: { type: string, enum: *units } } }`).join('\n');
    const result = checkText(`mcpgen: 1\nserver: { name: s, version: "1" }\n$defs:\n  Unit: { type: string, enum: &units [c, f, k] }\ntools:\n${tools}\n`);
    expect(result.diagnostics).toEqual([]);
    expect(result.models).toHaveLength(1);
  });

  it('refuses a raw NUL byte where it stands, and accepts the escaped form', () => {
    const raw = checkText('mcpgen: 1\nserver: { name: s, version: "1\0" }\n');
    expect(raw.diagnostics.map((d) => [d.code, d.line, d.column, d.message])).toEqual([
      ['MCPG001', 2, 31, 'raw control character U+0000 (NUL) is not allowed in YAML; write it as an escape in a double-quoted string ("\\u0000")'],
    ]);
    expect(checkText('mcpgen: 1\nserver: { name: s, version: "1\\0" }\n').diagnostics).toEqual([]);
  });

  it('refuses YAML 1.1 tags that make values JSON cannot hold', () => {
    const result = checkText('mcpgen: 1\nserver:\n  name: s\n  version: !!binary aGVsbG8=\n  title: !!str plain\n');
    expect(result.diagnostics.map((d) => [d.code, d.line, d.column, d.message.slice(0, 28)])).toEqual([['MCPG001', 4, 12, 'unknown YAML tag "!!binary":']]);
  });
});

describe('x-mcp-header names', () => {
  const spec = (props: string) => `mcpgen: 1\nserver: { name: s, version: "1" }\ntools:\n  - name: t\n    input:\n      type: object\n      properties:\n${props}`;

  it('MCPG017 matches whole words, not substrings: Author, Max-Tokens and Token-Count are not secrets', () => {
    const quiet = checkText(spec('        author: { type: string, x-mcp-header: Author }\n        maxTokens: { type: integer, x-mcp-header: Max-Tokens }\n        tokenCount: { type: integer, x-mcp-header: Token-Count }\n        authority: { type: string, x-mcp-header: Authority }\n'));
    expect(quiet.diagnostics).toEqual([]);
    const names = ['accessToken', 'clientSecret', 'password', 'cookie', 'authorization', 'sessionId', 'authtoken', 'privateKey'];
    const loud = checkText(spec(names.map((n, i) => `        ${n}: { type: string, x-mcp-header: H${i} }\n`).join('')));
    expect(loud.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual(names.map((_, i) => ['MCPG017', 8 + i, 41 + names[i]!.length]));
  });

  it('near-misses of x-mcp-header are refused with a suggestion; other x- keywords stay annotations', () => {
    const result = checkText(spec('        a: { type: string, X-MCP-Header: A }\n        b: { type: string, x_mcp_header: B }\n        c: { type: string, x-mcp-hedaer: C }\n        d: { type: string, x-mcp-hidden: true, x-order: 1 }\n'));
    expect(result.diagnostics.map((d) => [d.code, d.line, d.column, d.message.endsWith('did you mean "x-mcp-header"?')])).toEqual([
      ['MCPG020', 8, 28, true],
      ['MCPG020', 9, 28, true],
      ['MCPG020', 10, 28, true],
    ]);
  });
});

describe('every problem of a JSON Schema, each at its keyword', () => {
  it('reports all meta-schema and format errors of one schema, not only the first, and not at the input root', () => {
    const result = checkText(`mcpgen: 1
server: { name: s, version: "1" }
tools:
  - name: t
    input:
      type: object
      properties:
        a: { type: int }
        b: { type: [string, nul] }
        c: { type: integer, minimum: low }
        d: { type: string, format: emial }
        e: { type: string, minLength: 1, descripton: typo }
`);
    expect(result.diagnostics.map((d) => [d.code, d.line, d.column, d.path, d.message])).toEqual([
      ['MCPG019', 8, 20, 'tools[0].input.properties.a.type', '"int" is not a JSON Schema type in input schema of tool "t"; did you mean "integer"?'],
      ['MCPG019', 9, 20, 'tools[0].input.properties.b.type', '"nul" is not a JSON Schema type in input schema of tool "t"; did you mean "null"?'],
      ['MCPG019', 10, 38, 'tools[0].input.properties.c.minimum', '"minimum" must be number in input schema of tool "t", got the string "low"'],
      ['MCPG111', 11, 36, 'tools[0].input.properties.d.format', 'unknown format "emial" in input schema of tool "t" is not checked (values are accepted as if it were absent); did you mean "email"?'],
      ['MCPG020', 12, 42, 'tools[0].input.properties.e.descripton', 'unknown JSON Schema keyword "descripton" in input schema of tool "t"; did you mean "description"?'],
    ]);
  });

  it('reports every strict-mode finding of the compile at the keyword it names', () => {
    const result = checkText(`mcpgen: 1
server: { name: s, version: "1" }
tools:
  - name: t
    input:
      type: object
      properties:
        a: { properties: { x: { type: string } } }
        b: { type: string, minimum: 1 }
        c: { type: array, prefixItems: [{ type: string }] }
`);
    // `b`'s minimum is ignored beside `type: string` (MCPG019); `a` and `c` are valid 2020-12 as written (MCPG190).
    expect(result.diagnostics.map((d) => [d.code, d.line, d.column, d.path])).toEqual([
      ['MCPG190', 8, 14, 'tools[0].input.properties.a.properties'],
      ['MCPG019', 9, 28, 'tools[0].input.properties.b.minimum'],
      ['MCPG190', 10, 27, 'tools[0].input.properties.c.prefixItems'],
    ]);
    expect(result.diagnostics[1]!.message).toBe('input schema of tool "t" does not compile: strict mode: missing type "number" for keyword "minimum" (strictTypes)');
  });
});

describe('a key typo does not hide the other problems of its entry', () => {
  it('reports the unknown key and the tool\'s name, header and schema problems together', () => {
    const result = checkText(`mcpgen: 1
server: { name: s, version: "1", websiteUrl: "docs" }
tools:
  - name: get weather
    descripton: typo
    input:
      type: object
      properties:
        region: { type: string, x-mcp-header: "Re gion" }
        count: { type: int }
`);
    expect(result.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ['MCPG051', 2, 46],
      ['MCPG010', 4, 11],
      ['MCPG003', 5, 5],
      ['MCPG013', 9, 47],
      ['MCPG019', 10, 24],
    ]);
  });
});

describe('auth rules beyond the fixtures', () => {
  it('refuse scope names outside the OAuth scope-token grammar, a query on an issuer, and scopes on resources and templates', () => {
    const result = checkText(
      'mcpgen: 1\nserver: { name: s, version: 1.0.0 }\nauth:\n  authorizationServers: ["https://a.example.com/?x=1", "http://127.0.0.1:8080", "ftp://a.example.com"]\n  scopes:\n    "files read": x\n    ok: y\n  requiredScopes: [nope]\n' +
        'resources:\n  - { uri: "file:///a", name: a, scopes: [ok, other] }\nresourceTemplates:\n  - { uriTemplate: "file:///{x}", name: b, scopes: [ok] }\n',
    );
    expect(result.diagnostics.map((d) => [d.code, d.path, d.message])).toEqual([
      ['MCPG072', 'auth.authorizationServers[0]', 'authorization server "https://a.example.com/?x=1" has a query'],
      ['MCPG072', 'auth.authorizationServers[2]', 'authorization server "ftp://a.example.com" uses ftp (https is required)'],
      ['MCPG075', 'auth.scopes["files read"]', 'scope "files read" is not an OAuth scope-token (printable ASCII, no spaces, quotes or backslashes)'],
      ['MCPG070', 'auth.requiredScopes[0]', 'scope "nope" is not declared under auth.scopes; declared: files read, ok'],
      ['MCPG070', 'resources[0].scopes[1]', 'scope "other" is not declared under auth.scopes; declared: files read, ok'],
    ]);
  });

  it('accept a complete auth section', () => {
    const result = checkText('mcpgen: 1\nserver: { name: s, version: 1.0.0 }\nauth:\n  authorizationServers: [https://a.example.com]\n  resource: https://mcp.example.com/mcp\n  scopes: { r: Read }\n  requiredScopes: [r]\ntools:\n  - { name: t, scopes: [r] }\n');
    expect(result.diagnostics).toEqual([]);
    expect(result.models).toHaveLength(1);
  });

  it('keep auth in the root file, and check the scopes of included items against it', () => {
    const result = checkText('mcpgen: 1\nserver: { name: s, version: 1.0.0 }\nauth: { authorizationServers: [https://a.example.com], scopes: { r: Read } }\ninclude: [more.yaml]\n', {
      'more.yaml': 'auth: { authorizationServers: [https://b.example.com] }\ntools:\n  - { name: t, scopes: [r, w] }\n',
    });
    expect(result.diagnostics.map((d) => [d.code, d.file.endsWith('more.yaml'), d.path])).toEqual([
      ['MCPG008', true, 'auth'],
      ['MCPG070', true, 'tools[0].scopes[1]'],
    ]);
  });
});

describe('unknown formats (MCPG111, JSON Schema 2020-12 §7.2.3)', () => {
  // Before: MCPG019 errors, so zod-to-JSON-Schema servers' `format: json` failed `check`.
  it('warn once where written, in a $defs entry a tool uses too, and the rest of the schema is still checked', () => {
    const result = checkText(`mcpgen: 1\nserver: { name: f, version: 1.0.0 }\n$defs:\n  Blob: { type: string, format: json }\ntools:\n  - name: t\n    input:\n      type: object\n      properties:\n        a: { $ref: "#/$defs/Blob" }\n        b: { type: string, format: color, default: 3 }\n`);
    expect(result.diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([
      ['MCPG111', 'warning', '$defs.Blob.format'],
      ['MCPG111', 'warning', 'tools[0].input.properties.b.format'],
      ['MCPG022', 'error', 'tools[0].input.properties.b.default'],
    ]);
  });

  it('in a $defs entry nested below another, used by several tools: stripped from each bundle, warned once', () => {
    const tool = (name: string, type: string) => `  - name: ${name}\n    input: { type: object, properties: { w: { $ref: "#/$defs/Wrap" }, n: { type: ${type}, default: 1 } } }\n`;
    const result = checkText(`mcpgen: 1\nserver: { name: f, version: 1.0.0 }\n$defs:\n  Blob: { type: string, format: json }\n  Wrap: { type: object, properties: { b: { $ref: "#/$defs/Blob" } } }\ntools:\n${tool('a', 'integer')}${tool('b', 'number')}${tool('c', 'string')}`);
    expect(result.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['MCPG111', '$defs.Blob.format'],
      ['MCPG022', 'tools[2].input.properties.n.default'],
    ]);
  });

  it('alone leave a spec that builds', () => {
    const result = checkText(`mcpgen: 1\nserver: { name: f, version: 1.0.0 }\ntools:\n  - name: t\n    input:\n      type: object\n      properties:\n        q: { type: string, format: json, default: "{}" }\n`);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['MCPG111']);
    expect(result.models).toHaveLength(1);
  });
});

describe('JSON Schema dialects (draft-07 and 2019-09 beside 2020-12)', () => {
  const spec = (schema: string) => `mcpgen: 1\nserver: { name: d, version: 1.0.0 }\ntools:\n  - name: t\n    input:\n${schema}`;
  // Before: MCPG019 "no schema with key or ref" (ajv's words) for every zod-to-JSON-Schema server.
  it('accepts a draft-07 schema in its own terms: tuples with additionalItems, definitions, $ref', () => {
    const result = checkText(spec(`      $schema: http://json-schema.org/draft-07/schema#\n      type: object\n      properties:\n        pair: { type: array, items: [{ type: string }, { type: integer }], minItems: 2, additionalItems: false }\n        mode: { $ref: "#/definitions/Mode" }\n      definitions:\n        Mode: { type: string, enum: [a, b], default: a }\n      additionalProperties: false\n`));
    expect(result.diagnostics).toEqual([]);
    expect(result.models).toHaveLength(1);
  });

  it('accepts 2019-09, and checks defaults against the schema in its dialect', () => {
    const ok = checkText(spec(`      $schema: https://json-schema.org/draft/2019-09/schema\n      type: object\n      properties:\n        x: { type: integer, default: 1 }\n`));
    expect(ok.diagnostics).toEqual([]);
    const bad = checkText(spec(`      $schema: http://json-schema.org/draft-07/schema#\n      type: object\n      properties:\n        pair: { type: array, items: [{ type: string }], minItems: 1, additionalItems: false, default: [a, 1] }\n`));
    expect(bad.diagnostics.map((d) => [d.code, d.path])).toEqual([['MCPG022', 'tools[0].input.properties.pair.default']]);
  });

  it('accepts a draft-07 schema that uses the spec\'s $defs', () => {
    const result = checkText(`mcpgen: 1\nserver: { name: d, version: 1.0.0 }\n$defs:\n  Mode: { type: string, enum: [a, b] }\ntools:\n  - name: t\n    input:\n      $schema: http://json-schema.org/draft-07/schema#\n      type: object\n      properties:\n        mode: { $ref: "#/$defs/Mode", default: a }\n`);
    expect(result.diagnostics).toEqual([]);
    expect(result.models[0]!.tools[0]!.inputSchema.$schema).toBe('http://json-schema.org/draft-07/schema#');
  });

  it('knows the older keywords only where the schema names an older dialect', () => {
    const result = checkText(spec(`      type: object\n      definitions: { A: { type: string } }\n`));
    expect(result.diagnostics.map((d) => d.code)).toEqual(['MCPG020']);
  });

  it('refuses another dialect with one diagnostic naming the supported ones, whatever else is wrong', () => {
    const result = checkText(spec(`      $schema: https://example.com/my-dialect\n      type: object\n      properties: { a: { type: int } }\n`));
    expect(result.diagnostics.map((d) => [d.code, d.path])).toEqual([['MCPG110', 'tools[0].input.$schema']]);
    expect(result.diagnostics[0]!.message).not.toMatch(/no schema with key/);
  });
});

describe('server.name is free text (MCP Implementation.name); the folder and identifiers are derived', () => {
  const spec = (name: string) => `mcpgen: 1\nserver: { name: ${JSON.stringify(name)}, version: 1.0.0 }\n`;
  // Before: the spec schema's identifier pattern refused both (MCPG001-style "must match pattern").
  it.each([
    ['mcp-servers/everything', 'mcp-servers-everything', 'McpServersEverything'],
    ['Notion API', 'notion-api', 'NotionAPI'],
    ['weather', 'weather', 'Weather'],
    ['2048 game!', 'game', '_2048Game'],
  ])('%s → folder %s, stem %s', (name, folder, stem) => {
    const result = checkText(spec(name));
    expect(result.diagnostics).toEqual([]);
    expect(result.models[0]).toMatchObject({ name, folder, typeStem: stem });
  });

  it('two servers whose names give one folder are MCPG100', () => {
    const dir = join(ROOT, '.tmp/server-folder-collision');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'a.yaml'), spec('Notion API'));
    writeFileSync(join(dir, 'b.yaml'), spec('notion-api'));
    const result = check([join(dir, 'a.yaml'), join(dir, 'b.yaml')], ROOT);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['MCPG100', 'MCPG100']);
    expect(result.diagnostics[0]!.message).toContain('output folder notion-api/');
  });
});

describe('valid JSON Schema 2020-12 is never an error (MCPG190)', () => {
  it('enum: [], if without then, a closed tuple without minItems, properties without type: warnings, and the spec builds', () => {
    const result = checkText(`mcpgen: 1
server: { name: s, version: "1" }
tools:
  - name: t
    input:
      type: object
      properties:
        never: { type: string, enum: [] }
        code: { type: string, if: { minLength: 3 } }
        pair: { type: array, prefixItems: [{ type: string }, { type: integer }], items: false }
        address: { properties: { city: { type: string } } }
`);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.diagnostics.map((d) => d.code).sort()).toEqual(['MCPG190', 'MCPG190', 'MCPG190', 'MCPG190']);
    expect(result.models).toHaveLength(1);
  });
});
