// A bound on what one answer may weigh, checked before the SDK copies it (validation, JSON text,
// bytes, socket buffers: a 50 MB tool result peaked at 601 MB RSS unchecked).

/**
 * Whether `value` as JSON text would be longer than `limit` characters. Counts strings, keys and
 * punctuation roughly (within a few percent), stops as soon as the limit is passed, and ends on
 * cycles too (every visit adds to the count).
 */
export function exceedsJsonSize(value: unknown, limit: number): boolean {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') size += v.length + 2;
    else if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) size += 5;
    else if (Array.isArray(v)) {
      size += 2 + v.length;
      for (const item of v) stack.push(item);
    } else if (typeof v === 'object') {
      size += 2;
      for (const [k, item] of Object.entries(v)) {
        size += k.length + 4;
        stack.push(item);
      }
    }
    if (size > limit) return true;
  }
  return false;
}
