// Which operations become tools: a 500-operation API is not a good tool list as it is.
import type { OperationRef } from './operations.js';

export interface Selection {
  /** Keep operations with at least one of these tags. */
  readonly tags?: readonly string[];
  /** Keep operations whose operationId matches one of these globs (`*`, `?`). */
  readonly operations?: readonly string[];
  /** Keep these HTTP methods (lower case). */
  readonly methods?: readonly string[];
}

export function selected(ref: OperationRef, s: Selection): boolean {
  // `x-mcp: false` on the operation (or its path item) keeps it out whatever the flags say.
  if (ref.op['x-mcp'] === false || (ref.pathItem['x-mcp'] === false && ref.op['x-mcp'] !== true)) return false;
  if (s.methods !== undefined && s.methods.length > 0 && !s.methods.includes(ref.method)) return false;
  const tags = Array.isArray(ref.op.tags) ? ref.op.tags : [];
  if (s.tags !== undefined && s.tags.length > 0 && !tags.some((t) => s.tags!.includes(String(t)))) return false;
  if (s.operations !== undefined && s.operations.length > 0) {
    const id = typeof ref.op.operationId === 'string' ? ref.op.operationId : '';
    if (!s.operations.some((g) => glob(g).test(id))) return false;
  }
  return true;
}

function glob(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.');
  return new RegExp(`^${body}$`);
}
