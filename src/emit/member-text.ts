// The per-tool members of server.ts's handlers interface and client.ts's class as text, the way ts-morph
// prints them, without ts-morph: printing a member costs ts-morph a new code-block-writer for each
// parameter type and return type and a character-by-character scan, and 1,000 tools made that most of
// printing those files. Only the plain shapes those members have are written here (docs from docs(),
// one-line names and types, one one-line statement); anything else is left to ts-morph. A test prints
// both ways and compares.
import type { MethodDeclarationStructure, MethodSignatureStructure, OptionalKind, ParameterDeclarationStructure } from 'ts-morph';
import { jsdoc } from './doc.js';
import { methodText, signatureText } from './member-splice.js';

/** Members sit one level into their interface or class. */
const MEMBER_INDENT = '  ';
const BODY_INDENT = '    ';

/**
 * Text that code-block-writer writes as it is: no line break (it would indent the next line), no quote,
 * backslash, slash or backtick (it tracks strings, comments and regular expressions by them).
 */
const PLAIN = /^[^\r\n'"`/\\]*$/;
/** A statement may quote a string (a tool name through literal()) as long as nothing in it is escaped. */
const PLAIN_STATEMENT = /^[^\r\n'`/\\]*$/;

/** One interface method as ts-morph prints it among the members (signatureText's text). */
export function quickSignatureText(method: OptionalKind<MethodSignatureStructure>): string {
  const head = plainHead(method, ['name', 'docs', 'parameters', 'returnType']);
  return head === undefined ? signatureText(method) : `${head};\n`;
}

/** One class method with a one-line body as ts-morph prints it among the members (methodText's text). */
export function quickMethodText(method: OptionalKind<MethodDeclarationStructure>): string {
  const head = plainHead(method, ['name', 'docs', 'parameters', 'returnType', 'statements']);
  const statements = method.statements;
  if (head === undefined || !Array.isArray(statements) || statements.length !== 1) return methodText(method);
  const statement = statements[0];
  if (typeof statement !== 'string' || statement === '' || !PLAIN_STATEMENT.test(statement) || evenQuotes(statement) === false) return methodText(method);
  return `${head} {\n${BODY_INDENT}${statement}\n${MEMBER_INDENT}}\n`;
}

/** Docs, name, parameters and return type, indented; undefined when the member is not of the plain shape. */
function plainHead(method: { readonly [key: string]: unknown }, keys: readonly string[]): string | undefined {
  for (const key of Object.keys(method)) if (!keys.includes(key) && method[key] !== undefined) return undefined;
  const { name, docs, parameters, returnType } = method;
  if (typeof name !== 'string' || !PLAIN.test(name) || typeof returnType !== 'string' || !PLAIN.test(returnType)) return undefined;
  const doc = docsText(docs);
  const params = parametersText(parameters);
  if (doc === undefined || params === undefined) return undefined;
  return `${doc}${MEMBER_INDENT}${name}(${params}): ${returnType}`;
}

/** The JSDoc lines at member indentation ('' without docs); undefined unless docs is what docs() makes. */
function docsText(docs: unknown): string | undefined {
  if (docs === undefined || (Array.isArray(docs) && docs.length === 0)) return '';
  if (!Array.isArray(docs) || docs.length !== 1) return undefined;
  const doc: unknown = docs[0];
  if (typeof doc !== 'object' || doc === null || Object.keys(doc).join() !== 'description') return undefined;
  const description = (doc as { description: unknown }).description;
  // docs() made it: trimmed, `*/` broken up, line breaks as \n (a comment: quotes and slashes are free).
  if (typeof description !== 'string' || description === '' || description !== description.trim() || description.includes('*/') || description.includes('\r')) return undefined;
  return jsdoc(description)
    .split('\n')
    .map((line) => (line === '' ? line : `${MEMBER_INDENT}${line}`))
    .join('\n');
}

function parametersText(parameters: unknown): string | undefined {
  if (parameters === undefined) return '';
  if (!Array.isArray(parameters)) return undefined;
  const texts: string[] = [];
  for (const p of parameters as OptionalKind<ParameterDeclarationStructure>[]) {
    for (const key of Object.keys(p)) if (key !== 'name' && key !== 'type' && key !== 'hasQuestionToken') return undefined;
    if (!PLAIN.test(p.name) || p.name === '' || typeof p.type !== 'string' || !PLAIN.test(p.type) || p.type.trim() === '') return undefined;
    texts.push(`${p.name}${p.hasQuestionToken === true ? '?' : ''}: ${p.type}`);
  }
  return texts.join(', ');
}

function evenQuotes(text: string): boolean {
  return text.split('"').length % 2 === 1;
}
