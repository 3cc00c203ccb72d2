// `generate --watch` only: the generated text of one member (a tool's types, its definition entry, its
// client method…) by the IR object it was made from. model/tool-cache.ts keeps a tool's IR object while
// the tool is unchanged, so an unchanged tool's text is reused and spliced into its file as it is;
// only the edited tool's members are made again. Each cache keeps a store per context (what the member
// text depends on besides its own object: the spec's `$defs`, say), compared by identity.

import { ContextStores, sameItems } from '../common/context-stores.js';

let enabled = false;

export function enableMemberCaches(): void {
  enabled = true;
}

export function memberCachesEnabled(): boolean {
  return enabled;
}

export class MemberCache<K extends object, V> {
  private readonly stores = new ContextStores<readonly unknown[], WeakMap<K, V>>(sameItems, () => new WeakMap());

  /** A view of the cache for one file's emission with this context; a one-shot run gets a pass-through. */
  with(context: readonly unknown[]): (key: K, make: () => V) => V {
    if (!enabled) return (_key, make) => make();
    const members = this.stores.for(context);
    return (key, make) => {
      let value = members.get(key);
      if (value === undefined) members.set(key, (value = make()));
      return value;
    };
  }
}
