// The upstream answer as a tool result: JSON → structuredContent (checked against the output schema by
// the tool dispatcher), text → text content, images and audio → their content blocks, other bytes → an
// embedded resource (blob); 4xx/5xx → a tool error the model can act on.
import type { ContentBlock } from '@modelcontextprotocol/server';
import { reply, toolError, type ToolReply } from '../core/replies.js';
import { TEXT_TYPE } from './http-request.js';
import type { HttpBinding, UpstreamAnswer } from './http-types.js';

/** An answer read within the size bound, or why it could not be. */
export type Received = { readonly response: UpstreamAnswer; readonly bytes: Uint8Array } | { readonly failed: string };

/** Reads the body chunk by chunk and stops at the bound: a missing or false Content-Length cannot lift it. */
export async function readBounded(response: Response, maxBytes: number): Promise<Received> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return { failed: `upstream answer is ${declared} bytes, over the ${maxBytes}-byte bound` };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body !== null) {
    const reader = response.body.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      size += r.value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return { failed: `upstream answer is over the ${maxBytes}-byte bound` };
      }
      chunks.push(r.value);
    }
  }
  return { response, bytes: Buffer.concat(chunks) };
}

const JSON_TYPE = /[/+]json\b/i;
/** Not streaming, so one decoder serves every answer (a BOM is dropped, as fetch's text() drops it). */
const UTF8_TEXT = new TextDecoder();

export function toToolResult(binding: HttpBinding, url: string, response: UpstreamAnswer, bytes: Uint8Array): ToolReply<unknown> {
  const text = (): string => UTF8_TEXT.decode(bytes);
  if (!response.ok) {
    const status = `${response.status} ${response.statusText}`.trim();
    const retry = response.headers.get('retry-after');
    // A short summary the model can act on: the status and the start of the body.
    return toolError(`upstream ${binding.method.toUpperCase()} ${binding.path} answered ${status}${retry !== null ? ` (Retry-After: ${retry})` : ''}: ${text().slice(0, 500)}`);
  }
  if (bytes.byteLength === 0) return reply({ content: [{ type: 'text', text: `${response.status} ${response.statusText}`.trim() }] });
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (JSON_TYPE.test(type)) return jsonResult(binding, text());
  if (TEXT_TYPE.test(type)) return reply({ content: [{ type: 'text', text: text() }] });
  const data = Buffer.from(bytes).toString('base64');
  if (type.startsWith('image/')) return reply({ content: [{ type: 'image', data, mimeType: type }] });
  if (type.startsWith('audio/')) return reply({ content: [{ type: 'audio', data, mimeType: type }] });
  // No type: text when the bytes are UTF-8, else bytes.
  if (type === '') {
    const decoded = utf8(bytes);
    if (decoded !== undefined) return reply({ content: [{ type: 'text', text: decoded }] });
  }
  const resource: ContentBlock = { type: 'resource', resource: { uri: url, mimeType: type === '' ? 'application/octet-stream' : type, blob: data } };
  return reply({ content: [resource] });
}

function jsonResult(binding: HttpBinding, text: string): ToolReply<unknown> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return reply({ content: [{ type: 'text', text }] });
  }
  // With an output schema the dispatcher validates structuredContent (a mismatch is a tool error there).
  if (binding.output && typeof data === 'object' && data !== null && !Array.isArray(data)) return reply({ structuredContent: data, content: [{ type: 'text', text }] });
  return reply({ content: [{ type: 'text', text }] });
}

function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
