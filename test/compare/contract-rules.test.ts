// Given/want per contract rule, both directions: [rule, old spec, new spec, rule reported for the reverse].
import { describe, expect, it } from 'vitest';
import { compareYaml } from './support.js';

const head = 'mcpgen: 1\nserver: { name: s, version: 1.0.0 }\n';
const tools = (...t: string[]) => `${head}tools:\n${t.map((x) => `  - ${x}`).join('\n')}\n`;
const auth = (required: string) => `auth:\n  authorizationServers: [https://as.example.com]\n  scopes: { r: read, w: write }\n  requiredScopes: [${required}]\n`;

const CASES: [string, string, string, string | undefined][] = [
  ['TOOL_REMOVED', tools('name: a', 'name: b\n    description: B'), tools('name: a'), 'TOOL_ADDED'],
  ['TOOL_RENAMED', tools('name: a\n    description: A'), tools('name: z\n    description: A'), 'TOOL_RENAMED'],
  ['OUTPUT_SCHEMA_REMOVED', tools('name: a\n    output: { type: object, properties: { x: { type: string } } }'), tools('name: a'), 'OUTPUT_SCHEMA_ADDED'],
  ['OUTPUT_PROPERTY_REMOVED', tools('name: a\n    output: { type: object, properties: { x: { type: string }, y: { type: string } } }'), tools('name: a\n    output: { type: object, properties: { x: { type: string } } }'), undefined],
  ['HEADER_REMOVED', tools('name: a\n    input: { type: object, properties: { r: { type: string, x-mcp-header: Region } } }'), tools('name: a\n    input: { type: object, properties: { r: { type: string } } }'), 'HEADER_ADDED'],
  ['HEADER_RENAMED', tools('name: a\n    input: { type: object, properties: { r: { type: string, x-mcp-header: Region } } }'), tools('name: a\n    input: { type: object, properties: { r: { type: string, x-mcp-header: Zone } } }'), 'HEADER_RENAMED'],
  ['SCOPES_ADDED', `${auth('r')}${tools('name: a')}`, `${auth('r')}${tools('name: a\n    scopes: [w]')}`, 'SCOPES_REMOVED'],
  ['AUTH_ADDED', tools('name: a'), `${auth('r')}${tools('name: a')}`, 'AUTH_REMOVED'],
  ['TASK_SUPPORT_CHANGED', tools('name: a\n    task: optional'), tools('name: a\n    task: required'), 'TASK_SUPPORT_RELAXED'],
  ['TASK_SUPPORT_CHANGED', tools('name: a'), tools('name: a\n    task: required'), 'TASK_SUPPORT_CHANGED'],
  ['ANNOTATION_CHANGED', tools('name: a\n    annotations: { readOnlyHint: true }'), tools('name: a\n    annotations: { readOnlyHint: false }'), 'ANNOTATION_CHANGED'],
  ['DESCRIPTION_CHANGED', tools('name: a\n    description: one'), tools('name: a\n    description: two'), 'DESCRIPTION_CHANGED'],
  ['TITLE_CHANGED', tools('name: a\n    title: One'), tools('name: a\n    title: Two'), 'TITLE_CHANGED'],
  ['RESOURCE_REMOVED', `${head}resources:\n  - { uri: 'file:///a', name: a }\n`, `${head}resources: []\n`, 'RESOURCE_ADDED'],
  ['RESOURCE_MIME_TYPE_CHANGED', `${head}resources:\n  - { uri: 'file:///a', name: a, mimeType: text/plain }\n`, `${head}resources:\n  - { uri: 'file:///a', name: a, mimeType: application/json }\n`, 'RESOURCE_MIME_TYPE_CHANGED'],
  ['RESOURCE_TEMPLATE_REMOVED', `${head}resourceTemplates:\n  - { uriTemplate: 'file:///{x}', name: t }\n`, `${head}resourceTemplates: []\n`, 'RESOURCE_TEMPLATE_ADDED'],
  ['RESOURCE_TEMPLATE_CHANGED', `${head}resourceTemplates:\n  - { uriTemplate: 'file:///{x}', name: t }\n`, `${head}resourceTemplates:\n  - { uriTemplate: 'file:///{x}/{y}', name: t }\n`, 'RESOURCE_TEMPLATE_CHANGED'],
  ['PROMPT_REMOVED', `${head}prompts:\n  - { name: p }\n`, `${head}prompts: []\n`, 'PROMPT_ADDED'],
  ['PROMPT_ARGUMENT_REQUIRED', `${head}prompts:\n  - { name: p, arguments: [{ name: x }] }\n`, `${head}prompts:\n  - { name: p, arguments: [{ name: x, required: true }] }\n`, undefined],
  ['PROMPT_ARGUMENT_REQUIRED', `${head}prompts:\n  - { name: p }\n`, `${head}prompts:\n  - { name: p, arguments: [{ name: x, required: true }] }\n`, 'PROMPT_ARGUMENT_REMOVED'],
  ['PROMPT_ARGUMENT_REMOVED', `${head}prompts:\n  - { name: p, arguments: [{ name: x }] }\n`, `${head}prompts:\n  - { name: p }\n`, 'PROMPT_ARGUMENT_ADDED'],
  ['AUTH_SERVERS_CHANGED', `${auth('r')}${tools('name: a')}`, `${auth('r').replace('as.example', 'other.example')}${tools('name: a')}`, 'AUTH_SERVERS_CHANGED'],
];

describe('contract rules', () => {
  it.each(CASES)('%s', (rule, before, after, reverse) => {
    const forward = compareYaml(before, after);
    const f = forward.findings.find((x) => x.rule.id === rule);
    expect(f, JSON.stringify(forward.findings.map((x) => x.rule.id))).toBeDefined();
    expect(f!.new ?? f!.old).toMatchObject({ file: expect.stringMatching(/spec\.yaml$/), line: expect.any(Number) });
    const back = compareYaml(after, before);
    if (reverse !== undefined) expect(back.findings.map((x) => x.rule.id)).toContain(reverse);
    // A breaking change's reverse is breaking only where both directions break someone (renames, swaps).
    if (reverse === undefined) expect(back.findings.map((x) => x.rule.id)).not.toContain(rule);
  });

  it('positions in both versions, the removed tool at its line in the old spec', () => {
    const r = compareYaml(tools('name: a', 'name: b\n    description: B'), tools('name: a'));
    const f = r.findings.find((x) => x.rule.id === 'TOOL_REMOVED')!;
    expect(f.new).toBeUndefined();
    expect(f.old).toMatchObject({ line: 5, path: 'tools[1]' });
  });

  it('config: failOn and ignore', () => {
    const before = tools('name: a', 'name: b\n    description: B');
    expect(compareYaml(before, tools('name: a')).failing).toHaveLength(1);
    expect(compareYaml(before, tools('name: a'), { failOn: ['typed-clients'] }).failing).toHaveLength(0);
    const ignored = compareYaml(before, tools('name: a'), { ignore: [{ rule: 'TOOL_REMOVED', reason: 'deprecated in 1.4' }] });
    expect([ignored.failing.length, ignored.ignored]).toEqual([0, 1]);
  });
});

describe('docs/breaking-changes.md', () => {
  it('lists every rule id with its category and severity', async () => {
    const { readFileSync } = await import('node:fs');
    const { allRules } = await import('../../src/compare/index.js');
    const doc = readFileSync(new URL('../../docs/breaking-changes.md', import.meta.url), 'utf8');
    const rules = allRules();
    expect(rules.length).toBeGreaterThanOrEqual(60);
    for (const r of rules) expect(doc).toContain(`| \`${r.id}\` | ${r.category} | ${r.severity} |`);
  });
});
