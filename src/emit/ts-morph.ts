// ts-morph's runtime values, loaded with require rather than import: for a CommonJS package, Node's ESM
// loader first reads and scans the source for export names (cjs-module-lexer), then loads it again
// through require; skipping that made loading ts-morph about a quarter faster. Types come from the
// package as usual (`import type … from 'ts-morph'`).
import { createRequire } from 'node:module';
import type * as TsMorph from 'ts-morph';
import { preloadTypeScript } from './typescript-code-cache.js';

preloadTypeScript(import.meta.url);
const tsMorph = createRequire(import.meta.url)('ts-morph') as typeof TsMorph;

export const { printStructure, StructureKind, VariableDeclarationKind, Scope } = tsMorph;

/** How every generated file is printed; member-splice.ts prints single members the same way, or splicing would show. */
export const PRINT_OPTIONS = { indentNumberOfSpaces: 2, useSingleQuote: true } as const;
