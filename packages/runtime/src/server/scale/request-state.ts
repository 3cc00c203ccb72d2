// MRTR `requestState` integrity across instances, with key rotation.
//
// A handler hands the runtime a plain string (`ask({ requestState })`, `ctx.inputRequired(…, state)`);
// the runtime seals it before it leaves the server and opens it when the client echoes it, so the
// handler reads back exactly what it wrote — or the request is refused before the handler runs
// (tampered, expired, minted for another tool or other arguments, unknown key: -32602, rule MR6).
//
// Sealing is the SDK's own HMAC-SHA256 codec (createRequestStateCodec), one per key; the SDK codec
// takes a single key, so the wire value is prefixed with the key id: `m1.<kid>.<SDK value>`. The
// first key of the ring signs, every key verifies. Rotating without dropping a request in flight:
//   1. add the new key second on every instance  [old, new]  (all still sign with old)
//   2. move it first on every instance           [new, old]  (all verify both)
//   3. after the TTL, drop the old key           [new]
import { createHash, randomBytes } from 'node:crypto';
import { createRequestStateCodec, ProtocolError, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';

export const MIN_KEY_BYTES = 32;
export const DEFAULT_REQUEST_STATE_TTL_SECONDS = 600;
const WIRE_PREFIX = 'm1';
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface RequestStateKey {
  /** Names the key in every state it signs: letters, digits, `_`, `-`. */
  readonly id: string;
  /** At least 32 bytes (a string is taken as UTF-8). Every instance must have the same keys. */
  readonly secret: string | Uint8Array;
}

interface Payload {
  /** The handler's state. */
  readonly s: string;
  /** sha256 of what the state is bound to: method, tool/prompt name or URI, arguments. */
  readonly b: string;
}

/** Throws unless `ttlSeconds` is a positive whole number (the ring is built lazily: callers check at start). */
export function checkRequestStateTtl(ttlSeconds: number): void {
  if (!(Number.isInteger(ttlSeconds) && ttlSeconds > 0)) throw new RangeError(`requestState TTL must be a positive whole number of seconds, not ${ttlSeconds}`);
}

export class RequestStateKeyRing {
  private codecs = new Map<string, RequestStateCodec<Payload>>();
  private signer = '';

  constructor(keys: readonly RequestStateKey[], readonly ttlSeconds: number = DEFAULT_REQUEST_STATE_TTL_SECONDS) {
    checkRequestStateTtl(ttlSeconds);
    this.setKeys(keys);
  }

  /** Replace the keys (live rotation): the first signs, all verify. */
  setKeys(keys: readonly RequestStateKey[]): void {
    if (keys.length === 0) throw new RangeError('the requestState key ring needs at least one key');
    const codecs = new Map<string, RequestStateCodec<Payload>>();
    for (const k of keys) {
      if (!KEY_ID.test(k.id)) throw new RangeError(`requestState key id ${JSON.stringify(k.id)} must be 1-64 letters, digits, "_" or "-"`);
      if (codecs.has(k.id)) throw new RangeError(`requestState key id "${k.id}" is listed twice`);
      const bytes = typeof k.secret === 'string' ? Buffer.byteLength(k.secret, 'utf8') : k.secret.byteLength;
      if (bytes < MIN_KEY_BYTES) throw new RangeError(`requestState key "${k.id}" has ${bytes} bytes; at least ${MIN_KEY_BYTES} are required`);
      codecs.set(k.id, createRequestStateCodec<Payload>({ key: k.secret, ttlSeconds: this.ttlSeconds }));
    }
    this.codecs = codecs;
    this.signer = keys[0]!.id;
  }

  /** The wire value for a handler's state, bound to `binding` (see bindingOf). */
  async seal(state: string, binding: string): Promise<string> {
    return `${WIRE_PREFIX}.${this.signer}.${await this.codecs.get(this.signer)!.mint({ s: state, b: binding })}`;
  }

  /** The handler's state back from an echoed wire value; throws InvalidRequestState. */
  async open(wire: string, binding: string, ctx: ServerContext): Promise<string> {
    const first = wire.indexOf('.');
    const second = wire.indexOf('.', first + 1);
    if (first < 0 || second < 0 || wire.slice(0, first) !== WIRE_PREFIX) throw new InvalidRequestState('malformed');
    const codec = this.codecs.get(wire.slice(first + 1, second));
    if (codec === undefined) throw new InvalidRequestState('unknown key');
    let payload: Payload;
    try {
      payload = await codec.verify(wire.slice(second + 1), ctx);
    } catch (e) {
      // The SDK's reasons are fixed codes ('malformed', 'mac', 'expired'), never payload data.
      throw new InvalidRequestState(e instanceof Error ? e.message : 'malformed');
    }
    if (typeof payload?.s !== 'string' || payload.b !== binding) throw new InvalidRequestState('issued for another request');
    return payload.s;
  }
}

/** -32602, as rule MR6 and the conformance tampered-state scenario expect. */
export class InvalidRequestState extends ProtocolError {
  constructor(readonly reason: string) {
    super(-32602, `Invalid requestState (${reason})`);
  }
}

/** What a state is bound to: the method, the tool/prompt name or resource URI, and the arguments. */
export function bindingOf(method: string, target: string, args: unknown, principal = ''): string {
  return lazyBindingOf(method, target, args, principal)();
}

/** bindingOf in two steps: the arguments are read now (a handler may change them later), hashed only when a state needs it. */
export function lazyBindingOf(method: string, target: string, args: unknown, principal = ''): () => string {
  const preimage = `${method}\0${target}\0${principal}\0${canonicalJson(args ?? {})}`;
  let hash: string | undefined;
  return () => (hash ??= createHash('sha256').update(preimage).digest('base64url'));
}

/** JSON with object keys sorted, so the same arguments bind the same way whatever their key order. */
function canonicalJson(value: unknown): string {
  // Built by concatenation, sorting only keys out of order: this runs on every tools/call.
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${out}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    // Insertion sort, in place, for the few keys of a usual arguments object (Array#sort copies into a
    // work area); `>` on strings is code-unit order, as sort() without a comparator orders them.
    if (keys.length > 16) keys.sort();
    else {
      for (let i = 1; i < keys.length; i++) {
        const key = keys[i]!;
        let j = i - 1;
        for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!;
        keys[j + 1] = key;
      }
    }
    let out = '{';
    for (let i = 0; i < keys.length; i++) out += `${i === 0 ? '' : ','}${JSON.stringify(keys[i])}:${canonicalJson((value as Record<string, unknown>)[keys[i]!])}`;
    return `${out}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A ring with one random key: enough for a single instance, useless across instances (say so). */
export function processLocalKeyRing(ttlSeconds?: number): RequestStateKeyRing {
  return new RequestStateKeyRing([{ id: 'local', secret: randomBytes(MIN_KEY_BYTES) }], ttlSeconds);
}

/**
 * Keys from `MCPGEN_REQUEST_STATE_KEYS`: comma-separated `id:secret` entries, the signing key first,
 * e.g. `k2:$(openssl rand -base64 48),k1:…`. Secrets are taken as given (UTF-8), at least 32 bytes.
 */
export function parseKeyList(text: string): RequestStateKey[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map((entry, i) => {
      const colon = entry.indexOf(':');
      // The entry may be a bare secret: never echo it.
      if (colon <= 0) throw new RangeError(`MCPGEN_REQUEST_STATE_KEYS entry ${i + 1} is not id:secret`);
      return { id: entry.slice(0, colon), secret: entry.slice(colon + 1) };
    });
}
