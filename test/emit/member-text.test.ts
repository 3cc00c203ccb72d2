// member-text.ts writes the per-tool members of server.ts and client.ts without ts-morph: its text must be
// ts-morph's, byte for byte, for every description a spec can hold, and anything it does not cover must
// still be printed by ts-morph.
import { describe, expect, it } from 'vitest';
import { docs, literal } from '../../src/emit/doc.js';
import { methodText, signatureText } from '../../src/emit/member-splice.js';
import { quickMethodText, quickSignatureText } from '../../src/emit/member-text.js';

const DESCRIPTIONS = [
  undefined,
  'One line.',
  'Two\nlines.',
  'A paragraph.\n\nAnother, after a blank line.',
  "Quotes: 'single', \"double\", `back`; it's unbalanced \" and ` too.",
  'Slashes: // a line comment, /* a block */, a/b/c, /regex/g, and a trailing backslash \\',
  'Ends a comment early */ twice */ and /** opens one',
  'Template ${not} {braces} }{ and $dollars',
  '   Indented lines\n    keep their spaces   \n\ttabs\there\n  ',
  'CRLF\r\nand CR\rand U+2028\u2028and U+2029\u2029end',
  'Control \u0001\u0007 characters and \u007f',
  'Unicode: ünïcödé, 漢字, emoji 🎉, NEL\u0085here',
  '\n\nLeading and trailing blank lines\n\n',
  ' * looks like a JSDoc line\n * @param x and a tag\n@returns',
];

function randomText(seed: number): string {
  const alphabet = ['a', ' ', '\n', '*', '/', '\\', "'", '"', '`', '$', '{', '}', '\t', '\r', '@', 'é', '\u2028', '(', ')'];
  let x = seed;
  let out = '';
  const length = 1 + (seed % 40);
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += alphabet[x % alphabet.length];
  }
  return out;
}

describe('member text without ts-morph', () => {
  const descriptions = [...DESCRIPTIONS, ...Array.from({ length: 400 }, (_, i) => randomText(i + 1))];

  it("an interface method is printed as ts-morph prints it", () => {
    for (const description of descriptions) {
      const method = {
        name: 'getUser',
        docs: docs(description, `Tool ${literal('get_user')}.`),
        parameters: [{ name: 'args', type: 'GetUserInput' }, { name: 'ctx', type: 'ToolContext<{ confirm: ConfirmAnswer; other: undefined }>' }],
        returnType: 'Awaitable<ToolReturn<GetUserOutput> | InputRequiredReply>',
      };
      expect(quickSignatureText(method), JSON.stringify(description)).toBe(signatureText(method));
    }
  });

  it('a class method is printed as ts-morph prints it', () => {
    for (const description of descriptions) {
      for (const optional of [false, true]) {
        const method = {
          name: 'getUser',
          docs: docs(description, `Calls tool ${literal('get_user')}.`),
          parameters: [{ name: 'args', type: 'GetUserArguments', ...(optional ? { hasQuestionToken: true } : {}) }, { name: 'options', type: 'CallOptions', hasQuestionToken: true }],
          returnType: 'Promise<ToolCallResult<unknown>>',
          statements: [`return this.callTool(${literal('get_user')}, args, options);`],
        };
        expect(quickMethodText(method), JSON.stringify(description)).toBe(methodText(method));
      }
    }
  });

  it('members of other shapes are left to ts-morph', () => {
    const signatures = [
      { name: 'a', docs: docs('x'), parameters: [{ name: 'k', type: "{ 'quoted key': string }" }], returnType: 'void' },
      { name: 'a', parameters: [{ name: 'v', type: 'string', initializer: "'x'" }], returnType: 'void' },
      { name: 'a', typeParameters: [{ name: 'T' }], parameters: [], returnType: 'T' },
      { name: 'a', hasQuestionToken: true, returnType: 'void' },
      { name: 'a', returnType: '{\n  x: string;\n}' },
      { name: 'a', docs: [{ description: 'x', tags: [{ tagName: 'deprecated' }] }], returnType: 'void' },
    ];
    for (const method of signatures) expect(quickSignatureText(method)).toBe(signatureText(method));
    const methods = [
      { name: 'a', returnType: 'void', statements: ['const a = 1;', 'return;'] },
      { name: 'a', returnType: 'void', statements: ['return `x`;'] },
      { name: 'a', returnType: 'void', statements: ['return "a\\"b";'] },
      { name: 'a', returnType: 'void', statements: ['return x / 2;'] },
      { name: 'a', isAsync: true, returnType: 'Promise<void>', statements: ['return;'] },
    ];
    for (const method of methods) expect(quickMethodText(method)).toBe(methodText(method));
  });
});
