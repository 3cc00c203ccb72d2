// The proxy handlers module the import writes: the server's handlers interface implemented by
// `httpProxy` over the bindings as data. Data reaches code only as JSON (escaped by construction).
import { createRequire } from 'node:module';
import type * as TsMorph from 'ts-morph';
import { pascalCase } from '../../common/names.js';
import type { OpenApiImport } from './index.js';
import { envName } from './upstream.js';

/** First line of a handlers file the import owns: a re-import replaces it only while this is still there. */
export const IMPORT_MARK = '// Written by `mcpgen import openapi`';

export function handlersFile(imported: OpenApiImport, from: string, serverImport: string): string {
  const { printStructure, StructureKind, VariableDeclarationKind } = createRequire(import.meta.url)('ts-morph') as typeof TsMorph;
  const handlers = `${pascalCase(imported.serverName)}Handlers`;
  const baseEnv = envName(imported.serverName, 'BASE_URL');
  const options = [
    `baseUrl: process.env[${JSON.stringify(baseEnv)}] ?? ${JSON.stringify(imported.baseUrl)}`,
    ...(imported.auth.length > 0 ? [`auth: ${JSON.stringify(imported.auth)}`] : []),
  ];
  const text = printStructure(
    {
      kind: StructureKind.SourceFile,
      statements: [
        { kind: StructureKind.ImportDeclaration, moduleSpecifier: '@mcpgen/runtime/server', namedImports: ['httpProxy'] },
        { kind: StructureKind.ImportDeclaration, moduleSpecifier: serverImport, namedImports: [handlers], isTypeOnly: true },
        {
          kind: StructureKind.VariableStatement,
          isExported: true,
          declarationKind: VariableDeclarationKind.Const,
          docs: [`Every tool calls its upstream operation. To write one by hand: \`{ ...httpProxy(...), listPets: async (args) => ... }\`.`],
          declarations: [{ name: 'handlers', type: handlers, initializer: `httpProxy<${handlers}>(${JSON.stringify(imported.bindings, null, 2)}, { ${options.join(', ')} })` }],
        },
      ],
    },
    { indentNumberOfSpaces: 2, useSingleQuote: true },
  );
  const banner = [
    `${IMPORT_MARK} from ${from}.`,
    `// A re-import rewrites this file while the first line stays; delete that line to make the file yours.`,
    `// Upstream: ${baseEnv} (default ${imported.baseUrl === '' ? 'none: set it' : imported.baseUrl})${imported.auth.map((a) => `, ${a.env}`).join('')}.`,
    '',
  ].join('\n');
  return `${banner}\n${text.trimEnd()}\n`;
}
