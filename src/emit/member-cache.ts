// `generate --watch` only: the generated text of one member (a tool's types, its definition entry, its
// client method…) by the IR object it was made from. model/tool-cache.ts keeps a tool's IR object while
// the tool is unchanged, so an unchanged tool's text is reused and spliced into its file as it is;
// only the edited tool's members are made again. A cache is dropped whole when its context changes
// (what the member text depends on besides its own object: the spec's `$defs`, say), compared by identity.

let enabled = false;

export function enableMemberCaches(): void {
  enabled = true;
}

export function memberCachesEnabled(): boolean {
  return enabled;
}

export class MemberCache<K extends object, V> {
  private members = new WeakMap<K, V>();
  private context: readonly unknown[] = [];

  /** A view of the cache for one file's emission with this context; a one-shot run gets a pass-through. */
  with(context: readonly unknown[]): (key: K, make: () => V) => V {
    if (!enabled) return (_key, make) => make();
    if (context.length !== this.context.length || context.some((c, i) => c !== this.context[i])) {
      this.members = new WeakMap();
      this.context = context;
    }
    return (key, make) => {
      let value = this.members.get(key);
      if (value === undefined) this.members.set(key, (value = make()));
      return value;
    };
  }
}
