import type { JsonPath, SourceFile } from '../parse/source.js';

/** A value from a spec file together with where it stands, so any rule can point at it. */
export interface Located<T> {
  readonly value: T;
  readonly source: SourceFile;
  readonly path: JsonPath;
}
