// A request body read up to a limit, as UTF-8 text: the HTTP face (http.ts) answers 413 / 400 -32700 itself.
export const TOO_LARGE = Symbol('too large');
export const NOT_UTF8 = Symbol('not UTF-8');

export async function readLimited(request: Request, limit: number): Promise<string | typeof TOO_LARGE | typeof NOT_UTF8> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return TOO_LARGE;
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return NOT_UTF8;
  }
}
