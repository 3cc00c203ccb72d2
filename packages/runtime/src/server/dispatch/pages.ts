// tools/list, resources/list, resources/templates/list, prompts/list: fixed pages built once, opaque cursors.
import { ProtocolError } from '@modelcontextprotocol/server';
import { INVALID_PARAMS } from './errors.js';

export interface Pages<T> {
  readonly pages: readonly T[][];
}

export function paginate<T>(items: readonly T[], size: number): Pages<T> {
  const pages: T[][] = [];
  for (let i = 0; i < items.length; i += size) pages.push(items.slice(i, i + size));
  return { pages: pages.length === 0 ? [[]] : pages };
}

/** Cursors are opaque to clients: `p<index>` in base64url. Anything else is -32602. */
export function page<T, R>(p: Pages<T>, cursor: string | undefined, wrap: (items: T[]) => R): R & { nextCursor?: string } {
  let index = 0;
  if (cursor !== undefined) {
    const decoded = /^p(\d{1,6})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
    index = decoded === null ? -1 : Number(decoded[1]);
    if (index < 1 || index >= p.pages.length) throw new ProtocolError(INVALID_PARAMS, 'Invalid cursor');
  }
  const next = index + 1 < p.pages.length ? { nextCursor: Buffer.from(`p${index + 1}`).toString('base64url') } : {};
  return { ...wrap(p.pages[index]!), ...next };
}
