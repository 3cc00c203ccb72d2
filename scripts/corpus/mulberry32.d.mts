// Types of mulberry32.mjs, for the TypeScript tests.
export declare function mulberry32(seed: number): () => number;
