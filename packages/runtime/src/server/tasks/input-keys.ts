// Wire keys of a task's input requests: a key is never reused over a task's life (SEP-2663), so a handler that
// asks again gets `key~2`, and answers map back to the handler's own key.
/**
 * The handler's key, or `key~2`, `key~3`… when it was issued before (a handler that asks again after a
 * decline): answers map back to the handler's own key. Spec elicit keys never contain `~`.
 */
export function freshKey(key: string, issued: ReadonlySet<string>): string {
  if (!issued.has(key)) return key;
  let n = 2;
  while (issued.has(`${key}~${n}`)) n++;
  return `${key}~${n}`;
}

/** The handler's key behind a wire key (for checking an answer against the tool's elicit schema). */
export function handlerKey(wire: string): string {
  return wire.replace(/~\d+$/, '');
}
