// The findings of one comparison, each placed in the old and the new spec where it can be.
import type { Rule } from './rules.js';
import type { Finding, ItemKind, Side } from './types.js';

export type Sub = readonly (string | number)[];

export class Findings {
  readonly list: Finding[] = [];
  constructor(readonly oldSide: Side, readonly newSide: Side) {}

  add(rule: Rule, message: string, where: { kind: ItemKind; oldKey?: string | undefined; newKey?: string | undefined } | undefined, oldSub: Sub | undefined, newSub: Sub | undefined, subjects: readonly string[] = []): void {
    const item = (key: string | undefined) => (where === undefined ? undefined : key === undefined ? null : { kind: where.kind, key });
    const oi = item(where?.oldKey);
    const ni = item(where?.newKey);
    const oldPos = oldSub === undefined || oi === null ? undefined : this.oldSide.locate(oi, oldSub);
    const newPos = newSub === undefined || ni === null ? undefined : this.newSide.locate(ni, newSub);
    const about = [...new Set([...subjects, ...(where?.oldKey !== undefined ? [where.oldKey] : []), ...(where?.newKey !== undefined ? [where.newKey] : []), this.oldSide.model.name, this.newSide.model.name])];
    this.list.push({ rule, message, ...(newPos ? { new: newPos } : {}), ...(oldPos ? { old: oldPos } : {}), subjects: about });
  }
}
