// A few arguments per tool, made from its published input schema: one the schema accepts and up to three
// it refuses (a required property missing, a property of the wrong type, a value outside an enum). The
// round-trip test sends each to the original server and to the generated one and compares the verdicts.
import { sample } from './schema-sample.js';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export type CaseKind = 'valid' | 'missing required' | 'wrong type' | 'outside enum';

export interface ArgumentCase {
  readonly kind: CaseKind;
  /** What the schema says: `valid` is accepted, every other kind refused. */
  readonly expected: Verdict;
  readonly args: Obj;
  /** The root property the case changed (none for `valid`). */
  readonly property?: string;
}

export type Verdict = 'accepted' | 'refused';

/** A value of another JSON type than the one the property declares. */
const WRONG: Record<string, unknown> = { string: 12345, number: 'not a number', integer: 'not a number', boolean: 'not a boolean', object: 'not an object', array: 'not an array' };

export function argumentCases(inputSchema: unknown): ArgumentCase[] {
  const schema = isObject(inputSchema) ? inputSchema : {};
  const defs = { ...(schema.definitions as Obj | undefined), ...(schema.$defs as Obj | undefined) };
  const valid = sample(schema, defs);
  if (!isObject(valid)) return [];
  const cases: ArgumentCase[] = [{ kind: 'valid', expected: 'accepted', args: valid }];
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]).filter((r) => r in valid) : [];
  if (required.length > 0) {
    const { [required[0]!]: _dropped, ...rest } = valid;
    cases.push({ kind: 'missing required', expected: 'refused', args: rest, property: required[0]! });
  }
  // Required properties first: a wrong optional one is as wrong, but the required ones are what clients send.
  const names = [...required, ...Object.keys(props).filter((k) => !required.includes(k))];
  const typed = names.find((k) => isObject(props[k]) && typeof props[k].type === 'string' && WRONG[props[k].type as string] !== undefined);
  if (typed !== undefined) cases.push({ kind: 'wrong type', expected: 'refused', args: { ...valid, [typed]: WRONG[(props[typed] as Obj).type as string] }, property: typed });
  const enumerated = names.find((k) => isObject(props[k]) && Array.isArray(props[k].enum) && (props[k].enum as unknown[]).every((v) => typeof v === 'string'));
  if (enumerated !== undefined) cases.push({ kind: 'outside enum', expected: 'refused', args: { ...valid, [enumerated]: '__not_in_the_enum__' }, property: enumerated });
  return cases;
}

// How each implementation says "these arguments are invalid": the SDK's McpServer (v1 and v2) answers
// isError "MCP error -32602: Input validation error: Invalid arguments for tool …", mcpgen's runtime
// isError "Invalid arguments for tool …", zod inside a handler (the GitLab server) JSON-RPC -32603
// "Invalid arguments: …". Any other outcome means the arguments reached the handler: accepted, whether the
// handler then succeeded or failed (a refused connection, a missing file).
const REFUSAL = /Invalid arguments|Input validation error/i;

interface CallingClient {
  callTool(params: { name: string; arguments: Obj }, resultSchema?: undefined, options?: { timeout: number }): Promise<unknown>;
}

export async function verdictOf(client: CallingClient, name: string, args: Obj, timeoutMs = 20_000): Promise<Verdict> {
  try {
    const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs })) as { isError?: boolean; content?: { text?: string }[] };
    const text = (result.content ?? []).map((c) => c.text ?? '').join('\n');
    return result.isError === true && REFUSAL.test(text) ? 'refused' : 'accepted';
  } catch (e) {
    const { code, message } = e as { code?: number; message?: string };
    if (/timed out|timeout/i.test(message ?? '')) throw new Error(`tools/call ${name} timed out: list the tool with its reason instead`);
    return code === -32602 || REFUSAL.test(message ?? '') ? 'refused' : 'accepted';
  }
}
