// `generate --watch`'s caches hold per-entry results that are only valid in one context (the spec's
// `$defs`, say). A watch over several specs alternates between their contexts on every run, so each
// cache keeps a store for each of the few most recent contexts rather than starting over on a switch.
// They are off unless the watch turns them on (one switch for all): a one-shot run must not pay for them.

/** How many contexts a cache keeps a store for (specs in one project; the least recently used goes). */
const KEPT_CONTEXTS = 32;

let enabled = false;

/** `generate --watch`: the per-object caches (ObjectCache, validate's clean sets) remember from now on. */
export function enableObjectCaches(): void {
  enabled = true;
}

export function objectCachesEnabled(): boolean {
  return enabled;
}

export class ContextStores<C, S> {
  private stores: { context: C; store: S }[] = [];

  constructor(
    private readonly same: (a: C, b: C) => boolean,
    private readonly make: () => S,
  ) {}

  /** The store for this context: the one kept for an equal context, or a new one. */
  for(context: C): S {
    const at = this.stores.findIndex((s) => this.same(s.context, context));
    const found = at >= 0 ? this.stores.splice(at, 1)[0]! : { context, store: this.make() };
    this.stores.unshift(found);
    if (this.stores.length > KEPT_CONTEXTS) this.stores.pop();
    return found.store;
  }
}

/** Contexts given as lists of values compared by identity (objects) or value (strings, numbers). */
export function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * What was made from an object (a tool's IR from its parsed tool, a member's text from its IR…), kept
 * while that very object comes back under the same context (values compared as sameItems does).
 */
export class ObjectCache<K extends object, V> {
  private readonly stores = new ContextStores<readonly unknown[], WeakMap<K, V>>(sameItems, () => new WeakMap());

  /** A view of the cache for one use with this context; a one-shot run gets a pass-through. */
  with(context: readonly unknown[]): (key: K, make: () => V) => V {
    if (!enabled) return (_key, make) => make();
    const made = this.stores.for(context);
    return (key, make) => {
      let value = made.get(key);
      if (value === undefined) made.set(key, (value = make()));
      return value;
    };
  }
}
