// The JS value of a parsed YAML document, for documents made of mappings with scalar keys, sequences,
// scalars and aliases: what `doc.toJS()` gives for them, in one pass without its per-node bookkeeping
// (toJS was a sixth of loading a 1.2 MB spec). Anything else — complex or aliased keys, `<<`, pairs in
// a sequence, custom node classes, an alias that does not resolve — returns NOT_PLAIN, and the caller
// uses `doc.toJS()` (test/load/plain-value.test.ts holds the two equal).
import { Alias, Scalar, YAMLMap, YAMLSeq, type Document } from 'yaml';

export const NOT_PLAIN: unique symbol = Symbol('not plain');

class NotPlain extends Error {}

export function plainValue(doc: Document.Parsed): unknown {
  // An alias means the last node before it with that anchor (yaml's Alias#resolve), converted once and shared.
  const anchored = new Map<string, { value: unknown; done: boolean }>();
  const convert = (node: unknown): unknown => {
    if (node === null || node === undefined) return node;
    const proto = Object.getPrototypeOf(node) as unknown;
    if (proto === Alias.prototype) {
      const target = anchored.get((node as Alias).source);
      if (target === undefined || !target.done) throw new NotPlain();
      return target.value;
    }
    const anchor = (node as { anchor?: string }).anchor;
    if (proto === Scalar.prototype) {
      const value = (node as Scalar).value;
      if (anchor) anchored.set(anchor, { value, done: true });
      return value;
    }
    if (proto === YAMLMap.prototype) {
      const out: Record<string, unknown> = {};
      const entry = { value: out as unknown, done: false };
      if (anchor) anchored.set(anchor, entry);
      for (const pair of (node as YAMLMap).items) {
        const key = pair.key as unknown;
        if (key === null || typeof key !== 'object' || Object.getPrototypeOf(key) !== Scalar.prototype) throw new NotPlain();
        const k = (key as Scalar).value;
        if (k === '<<' || (typeof k === 'object' && k !== null)) throw new NotPlain();
        if ((key as Scalar).anchor) anchored.set((key as Scalar).anchor!, { value: k, done: true });
        const name = k === null ? '' : String(k);
        const value = convert(pair.value);
        // As yaml does: a key that already resolves on the object (`__proto__`) becomes an own property.
        if (name in out) Object.defineProperty(out, name, { value, writable: true, enumerable: true, configurable: true });
        else out[name] = value;
      }
      entry.done = true;
      return out;
    }
    if (proto === YAMLSeq.prototype) {
      const out: unknown[] = [];
      const entry = { value: out as unknown, done: false };
      if (anchor) anchored.set(anchor, entry);
      for (const item of (node as YAMLSeq).items) {
        if (item !== null && typeof item === 'object' && Object.getPrototypeOf(item) !== Scalar.prototype && Object.getPrototypeOf(item) !== YAMLMap.prototype && Object.getPrototypeOf(item) !== YAMLSeq.prototype && Object.getPrototypeOf(item) !== Alias.prototype) throw new NotPlain();
        out.push(convert(item));
      }
      entry.done = true;
      return out;
    }
    throw new NotPlain();
  };
  try {
    return convert(doc.contents);
  } catch (e) {
    if (e instanceof NotPlain || e instanceof RangeError) return NOT_PLAIN; // RangeError: nesting deeper than the stack
    throw e;
  }
}
