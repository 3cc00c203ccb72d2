// Types of apis.mjs, for the TypeScript tests that import it.
export declare const DIRECTORY: string;
export declare function directoryApis(): { id: string; file: string }[];
export declare function serverNameOf(id: string): string;
export declare function seededPick<T>(items: readonly T[], count: number, seed: number): T[];
