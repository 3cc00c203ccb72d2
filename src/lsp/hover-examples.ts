// A tool's `examples:` in its hover, as the generated README shows them (common/markdown.ts escapes the
// spec's text). Read from the editor's text as written: anything not shaped like an example is left out.
import { codeSpan, exampleText, jsonSpan } from '../common/markdown.js';

export function examplesHover(examples: unknown): string {
  if (!Array.isArray(examples)) return '';
  const lines = examples.flatMap((e: unknown, i) => {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return [];
    const { name, description, arguments: args, result, isError } = e as Record<string, unknown>;
    const text = exampleText({ ...(typeof name === 'string' ? { name } : {}), ...(typeof description === 'string' ? { description } : {}), arguments: args ?? {} });
    const answer = isError === true ? `a tool error (${codeSpan('isError: true')})` : result !== undefined ? `${codeSpan('structuredContent')} contains ${jsonSpan(result)}` : 'a result, not a tool error';
    return [`- ${text.name === undefined ? `example ${i + 1}` : `**${text.name}**`}${text.description === undefined ? '' : ` (${text.description})`}: ${text.arguments} → ${answer}`];
  });
  return lines.length === 0 ? '' : `\n\nExamples (\`mcpgen test\` runs them first):\n${lines.join('\n')}`;
}
