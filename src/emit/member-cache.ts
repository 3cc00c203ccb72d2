// `generate --watch` only: the generated text of one member (a tool's types, its definition entry, its
// client method…) by the IR object it was made from. model/tool-cache.ts keeps a tool's IR object while
// the tool is unchanged, so an unchanged tool's text is reused and spliced into its file as it is;
// only the edited tool's members are made again. Each cache keeps a store per context (what the member
// text depends on besides its own object: the spec's `$defs`, say), compared by identity.

export { ObjectCache as MemberCache, objectCachesEnabled as memberCachesEnabled } from '../common/context-stores.js';
