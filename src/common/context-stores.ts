// `generate --watch`'s caches hold per-entry results that are only valid in one context (the spec's
// `$defs`, say). A watch over several specs alternates between their contexts on every run, so each
// cache keeps a store for each of the few most recent contexts rather than starting over on a switch.

/** How many contexts a cache keeps a store for (specs in one project; the least recently used goes). */
const KEPT_CONTEXTS = 32;

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
