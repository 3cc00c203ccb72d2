// Names a spec may legally use that JavaScript gives a meaning of its own: tools named `then`,
// `__proto__` and Object.prototype members, a `$defs` entry named `__proto__`, `$defs` named like
// TypeScript globals, an elicitation keyed `constructor`, and a recursive schema fed data nested past the stack. The
// generated package must compile under the strict flags and behave: the client is no thenable, every
// tool reaches its handler (typed client and OpenAI dispatcher), `$ref: '#/$defs/__proto__'` validates,
// the `constructor` elicitation round-trips, and deep data is refused as invalid, not a crash.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateAndCompile } from '../support/generated-package.js';
import { ROOT } from '../support/servers.js';

const DIR = join(ROOT, '.tmp/hostile-names');

const SPEC = `mcpgen: 1
server: { name: names, version: 1.0.0 }
$defs:
  __proto__: { type: integer }
  constructor: { type: string }
  Record: { type: object, properties: { r: { type: string } } }
  Promise: { type: string }
  Tree:
    type: object
    properties:
      children: { type: array, items: { $ref: '#/$defs/Tree' } }
tools:
  - name: then
  - name: constructor
  - name: toString
  - name: isPrototypeOf
    input: { type: object, properties: { toLocaleString: { type: string } } }
  - name: __proto__
    input:
      type: object
      properties:
        n: { $ref: '#/$defs/__proto__' }
        c: { $ref: '#/$defs/constructor' }
        r: { $ref: '#/$defs/Record' }
      required: [n]
  - name: tree
    input: { type: object, properties: { root: { $ref: '#/$defs/Tree' } } }
  - name: ask
    elicit:
      constructor: { message: which?, schema: { type: object, properties: { pick: { type: string } }, required: [pick] } }
resourceTemplates:
  - { uriTemplate: 'test://x/{__proto__}{?constructor}', name: t }
prompts:
  - name: p
    arguments: [{ name: constructor, required: true }]
`;

const HANDLERS = `import type { NamesHandlers } from './server.js';
export const handlers: NamesHandlers = {
  then_() { return 'then reached'; },
  constructor_() { return 'constructor reached'; },
  toString_() { return 'toString reached'; },
  isPrototypeOf_(args) { return 'isPrototypeOf reached ' + (args.toLocaleString ?? ''); },
  proto(args) { return 'proto reached ' + args.n; },
  tree() { return 'tree reached'; },
  readT(vars) { return JSON.stringify([Object.hasOwn(vars, '__proto__') ? vars.__proto__ : 'lost', vars.constructor]); },
  promptP(args) { return JSON.stringify([Object.hasOwn(args, 'constructor') ? args.constructor : 'inherited']); },
  ask(_args, ctx) {
    const answer = ctx.elicit.constructor.response;
    if (answer === undefined) return ctx.elicit.constructor.ask();
    return answer.action === 'accept' ? 'picked ' + answer.content.pick : answer.action;
  },
};
`;

describe('hostile names in a generated package', () => {
  it('compile, serve, dispatch and validate', async () => {
    const built = await generateAndCompile(DIR, 'names', SPEC, { 'handlers.ts': HANDLERS });
    expect(built.diagnostics).toEqual([]);
    expect(built.compileErrors).toEqual([]);

    const js = join(DIR, 'js');
    const { createNamesServer } = await import(join(js, 'server.js'));
    const { handlers } = await import(join(js, 'handlers.js'));
    const { NamesClient } = await import(join(js, 'client.js'));
    const { dispatchNamesToolCalls } = await import(join(js, 'openai.js'));
    const running = await createNamesServer(handlers, { onHandlerError: () => {} }).listen({ port: 0 });
    const client = await NamesClient.connect({ url: running.url }, { onElicit: () => ({ action: 'accept', content: { pick: 'blue' } }) });
    try {
      // `await connect()` gave the client itself: a `then` method would have made it a thenable.
      expect(client).toBeInstanceOf(NamesClient);
      expect('then' in client).toBe(false);
      const text = (r: { content: { text: string }[] }) => r.content[0]!.text;
      expect(text(await client.then_())).toBe('then reached');
      expect(text(await client.constructor_())).toBe('constructor reached');
      expect(text(await client.toString_())).toBe('toString reached');
      expect(text(await client.isPrototypeOf_({ toLocaleString: 'x' }))).toBe('isPrototypeOf reached x');
      expect(text(await client.proto({ n: 7 }))).toBe('proto reached 7');

      // The OpenAI dispatcher finds `__proto__` (an own key) and the Object.prototype names.
      const calls = ['then', 'constructor', 'toString', '__proto__', 'hasOwnProperty'].map((name, i) => ({ id: String(i), function: { name, arguments: name === '__proto__' ? '{"n": 1}' : '{}' } }));
      const answers = await dispatchNamesToolCalls(client, calls);
      expect(answers.map((a: { content: string }) => a.content)).toEqual(['then reached', 'constructor reached', 'toString reached', 'proto reached 1', JSON.stringify({ error: 'unknown tool hasOwnProperty' })]);

      // `#/$defs/__proto__` is shipped as an own entry and enforced: n must be an integer.
      const [proto] = (await client.listAllTools()).filter((t: { name: string }) => t.name === '__proto__');
      expect(Object.hasOwn(proto.inputSchema.$defs, '__proto__')).toBe(true);
      const bad = await client.proto({ n: 'not a number' });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatch(/^Invalid arguments for tool __proto__: .*must be integer/);

      // An elicitation keyed `constructor`: asked, answered, and the answer read back from the retried call
      // (an inherited member would have been found without own-property checks). `__proto__` is MCPG041.
      expect(text(await client.ask())).toBe('picked blue');

      // A template variable named `__proto__` arrives as data; a required prompt argument named
      // `constructor` is checked as an own property (an inherited one would pass the check unsent).
      expect(((await client.readT(JSON.parse('{"__proto__": "a b", "constructor": "c"}'))).contents[0] as { text: string }).text).toBe(JSON.stringify(['a b', 'c']));
      const prompt = await client.promptP({ constructor: 'k' });
      expect((prompt.messages[0]!.content as { text: string }).text).toBe(JSON.stringify(['k']));
      await expect(client.sdk.getPrompt({ name: 'p', arguments: {} })).rejects.toThrow(/Missing required argument "constructor"/);

      // Tree data nested far past the stack (sent as raw JSON text: JSON.stringify itself would overflow):
      // refused as invalid arguments; the server keeps serving.
      const depth = 50_000;
      const root = `${'{"children":['.repeat(depth)}{}${']}'.repeat(depth)}`;
      const version = '2026-07-28';
      const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tree","arguments":{"root":${root}},"_meta":{"io.modelcontextprotocol/protocolVersion":"${version}","io.modelcontextprotocol/clientCapabilities":{}}}}`;
      const response = await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': version, 'mcp-method': 'tools/call', 'mcp-name': 'tree' },
        body,
      });
      const answer = (await response.json()) as { result: { isError: boolean; content: { text: string }[] } };
      expect(answer.result.isError).toBe(true);
      expect(text(answer.result)).toBe('Invalid arguments for tool tree: arguments are nested too deeply to validate');
      expect(text(await client.tree({ root: { children: [{ children: [] }] } }))).toBe('tree reached');
    } finally {
      await client.close();
      await running.close(500);
    }
  }, 180_000); // tsc and a server on two shared cores: a timeout, not a target
});
