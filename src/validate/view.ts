import type { JsonPath, SourceFile } from '../parse/source.js';
import type { AppFile } from '../load/app-files.js';
import { mergeUpstream, type MergedUpstream } from './upstream.js';
import type { Located } from './located.js';
import type { JsonSchema, RawApp, RawPrompt, RawResource, RawResourceTemplate, RawServer, RawSpecFile, RawTool } from './spec-types.js';

export type { Located } from './located.js';

/** One server as the rules see it: the root file's settings and every primitive from all its files. */
export interface SpecView {
  readonly root: SourceFile;
  /** The root file, then its includes. */
  readonly files: readonly SourceFile[];
  readonly spec: RawSpecFile;
  readonly tools: readonly Located<RawTool>[];
  readonly resources: readonly Located<RawResource>[];
  readonly resourceTemplates: readonly Located<RawResourceTemplate>[];
  readonly prompts: readonly Located<RawPrompt>[];
  readonly defs: readonly Located<JsonSchema>[];
  /** MCP Apps views (root file only) and their HTML files as the loader read them, by `apps` index. */
  readonly apps: readonly Located<RawApp>[];
  readonly appFiles: ReadonlyMap<number, AppFile>;
  /** `upstream:` merged over the root file and its includes (absent: no file has one). */
  readonly upstream?: MergedUpstream;
}

export function at<T>(item: Located<unknown>, value: T, ...segments: JsonPath): Located<T> {
  return { value, source: item.source, path: [...item.path, ...segments] };
}

/** Merge the root file and its includes in declaration order (root first, then includes as listed). */
export function buildView(root: SourceFile, includes: readonly SourceFile[], appFiles: readonly AppFile[] = []): SpecView {
  const files = [root, ...includes];
  const collect = <K extends 'tools' | 'resources' | 'resourceTemplates' | 'prompts'>(key: K) =>
    files.flatMap((source) => {
      const list = (source.value as RawSpecFile)[key] ?? [];
      return list.flatMap((value, i) => (value === undefined ? [] : [{ value, source, path: [key, i] }])) as Located<NonNullable<RawSpecFile[K]>[number]>[];
    });
  const defs = files.flatMap((source) =>
    Object.entries((source.value as RawSpecFile).$defs ?? {}).map(([name, value]) => ({ value, source, path: ['$defs', name] })),
  );
  return {
    root,
    files,
    spec: root.value as RawSpecFile,
    tools: collect('tools'),
    resources: collect('resources'),
    resourceTemplates: collect('resourceTemplates'),
    prompts: collect('prompts'),
    defs,
    apps: ((root.value as RawSpecFile).apps ?? []).flatMap((value, i) => (value === undefined ? [] : [{ value, source: root, path: ['apps', i] }])),
    appFiles: new Map(appFiles.map((f) => [f.index, f])),
    ...optionalUpstream(mergeUpstream(files)),
  };
}

function optionalUpstream(upstream: MergedUpstream | undefined): { upstream?: MergedUpstream } {
  return upstream === undefined ? {} : { upstream };
}

/** The server (when the root file has one) and every primitive: what can carry `icons` and `_meta`. */
export function describedItems(view: SpecView): Located<RawServer | RawTool | RawResource | RawResourceTemplate | RawPrompt>[] {
  const server = view.spec.server;
  return [
    ...(server !== undefined ? [{ value: server, source: view.root, path: ['server'] }] : []),
    ...view.tools,
    ...view.resources,
    ...view.resourceTemplates,
    ...view.prompts,
  ];
}

export function lastSegment(item: Located<unknown>): string {
  return String(item.path[item.path.length - 1]);
}
