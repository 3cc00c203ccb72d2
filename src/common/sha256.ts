// sha256 of a text (or bytes, never remembered), hex. A spec's files are hashed by more than one stage of a run: the schema-check
// record's key (validate/rules/schema-check-record.ts) and the run record (write/run-record.ts) both hash
// GitHub's 6.6 MB owned file, ~15 ms each. The digests of the last few large texts are kept, by the text
// itself (a Map compares a long string by identity first, then by content), so each is hashed once.
import { createHash } from 'node:crypto';

/** Below this a digest costs less than remembering it. */
const LARGE = 1 << 20;
/** Large texts remembered: a spec's root and includes; older ones are forgotten (generate --watch reads new texts). */
const KEEP = 4;
const digests = new Map<string, string>();

export function sha256(text: string | Uint8Array): string {
  if (typeof text !== 'string') return createHash('sha256').update(text).digest('hex');
  if (text.length < LARGE) return createHash('sha256').update(text, 'utf8').digest('hex');
  let digest = digests.get(text);
  if (digest === undefined) {
    digest = createHash('sha256').update(text, 'utf8').digest('hex');
    if (digests.size >= KEEP) digests.delete(digests.keys().next().value!);
    digests.set(text, digest);
  }
  return digest;
}
