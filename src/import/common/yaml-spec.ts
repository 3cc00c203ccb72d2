import { Document } from 'yaml';

/**
 * Writes a spec object as YAML the same way every time: keys in the order given, no anchors for shared
 * objects (hoisting is explicit, through $defs), no timestamps. Shared by the importers.
 */
export function specToYaml(spec: Record<string, unknown>, header: readonly string[]): string {
  const doc = new Document(spec, { aliasDuplicateObjects: false });
  doc.commentBefore = header.map((line) => ` ${line}`).join('\n');
  return doc.toString({ lineWidth: 0, indent: 2 });
}
