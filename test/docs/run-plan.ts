// What test/docs/run.test.ts needs to run the shell lines of README and docs/ as a reader would, and
// the lines it does not run, each with the reason and where they are run instead. Data only.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/root.js';

/**
 * Lines not run here, by their text (a trailing `# comment` dropped), with why. They are still
 * checked: `bash -n` over every block here, and docs.test.ts's command checks (scripts, --help
 * entries, entry flags, files).
 */
export const NOT_RUN: Record<string, string> = {
  'npm ci && npm run build && npx mcpgen generate':
    'installs from the npm registry and rebuilds this checkout; npm test (package.json "test") builds, then runs `bin/mcpgen.js generate --check` (scripts/test.mjs) on the same mcpgen.config.yaml',
  'npm ci && npm test && npm run test:interop': 'the test suites themselves; .ci/run runs this line (docs.test.ts checks it says so)',
  "npm install ./vendor/mcpgen/mcpgen-runtime-0.1.0.tgz '@modelcontextprotocol/server@^2.4.0'":
    "installs from the npm registry and a service's vendor/mcpgen/; test/interop/packaging.test.ts runs README's install lines in a service pack-all packed into",
  "npm install --save-dev ./vendor/mcpgen/mcpgen-0.1.0.tgz ./vendor/mcpgen/mcpgen-runtime-client-0.1.0.tgz '@modelcontextprotocol/client@^2.4.0' typescript@5 @types/node@22":
    "installs from the npm registry and a service's vendor/mcpgen/; test/interop/packaging.test.ts runs README's install lines in a service pack-all packed into",
  "npm install @mcpgen/runtime@0.1.0 '@modelcontextprotocol/server@^2.4.0'": 'the registry line for once mcpgen is published; it is not yet (docs.test.ts checks the version it names)',
  "npm install --save-dev mcpgen@0.1.0 @mcpgen/runtime-client@0.1.0 '@modelcontextprotocol/client@^2.4.0' typescript@5 @types/node@22":
    'the registry line for once mcpgen is published; it is not yet (docs.test.ts checks the versions it names)',
  'npm ci --omit=dev': "installs from the npm registry; test/interop/packaging.test.ts runs it in README's service and checks no dev dependency is left",
  'npm ci': 'installs from the npm registry; .ci/run runs it',
  'npm run pack-all -- /path/to/your-service':
    "rebuilds this checkout and packs into a service; test/interop/packaging.test.ts runs it (--no-build) into an empty service and compares the install lines it prints with README's",
  'npx mcpgen check specs/everything.yaml --target openai-strict,anthropic,gemini':
    "names this repository's specs/everything.yaml, not a file of the docs' work folder; test/cli/bundles.test.ts runs `check --target openai-strict,anthropic,gemini` on every spec in specs/ (everything.yaml included) and test/validate/provider-targets.test.ts checks what it reports",
  'node generated/jobs/dist/main.js --http --front': 'needs redis-server (REDIS_URL) beside a --worker; test/interop/tasks-workers.test.ts runs a --front instance and two --worker instances of a generated main.js on a real redis-server',
  'node generated/jobs/dist/main.js --worker --port 9000': 'needs redis-server (REDIS_URL) beside a --front; test/interop/tasks-workers.test.ts runs it (on a free port)',
  'npx tsc -p generated/inventory && deploy/run-inventory.sh':
    'run-inventory.sh needs redis-server and nginx and binds fixed ports (6390, 3001, 3002, 8080) until Ctrl-C; test/interop/scale-out.test.ts runs the same main.js instances behind nginx on one Redis, compiled from generated/inventory (test/emit/compile.test.ts compiles every generated package)',
};

/** The order pages run in: they share one work folder, and migrating.md imports README's server. */
export const PAGES = ['README.md', 'docs/install.md', 'docs/migrating.md', 'docs/openapi.md', 'docs/scale-out.md'];

/** Files a page's commands take as already there; made before its first line runs. */
export const SETUP: Record<string, (cwd: string) => void> = {
  // "your server today", served over stdio: README's hello, built by README's lines.
  'docs/migrating.md': (cwd) => {
    mkdirSync(join(cwd, 'dist'), { recursive: true });
    writeFileSync(join(cwd, 'dist/server.js'), "import '../generated/hello/dist/main.js';\n");
  },
  // README's "From an OpenAPI description" imports the same petstore as docs/openapi.md, which then re-imports it.
  'README.md': (cwd) => copyFileSync(join(ROOT, 'test/fixtures/openapi/oas-examples/openapi-3.0-petstore.json'), join(cwd, 'petstore.json')),
  'docs/openapi.md': (cwd) => copyFileSync(join(ROOT, 'test/fixtures/openapi/oas-examples/openapi-3.0-petstore.json'), join(cwd, 'petstore.json')),
};

/** URLs a page names that stand for a server an earlier line started (by that line). */
export const SERVER_URLS: Record<string, string> = {
  'http://127.0.0.1:3000/mcp': 'node generated/hello/dist/main.js --http --port 3000',
};

/** What a line leaves behind, as the page says (by the start of the line). */
export const WRITES: Record<string, readonly string[]> = {
  'npx mcpgen init specs/hello.yaml': ['specs/hello.yaml', 'mcpgen.config.yaml'],
  'npx mcpgen generate': ['generated/hello/server.ts', 'generated/hello/handlers.ts', 'generated/hello/main.ts'],
  'npx tsc -p generated/hello': ['generated/hello/dist/main.js'],
  'npx mcpgen import mcp --out specs/notes.yaml': ['specs/notes.yaml'],
  'npx mcpgen import mcp --url': ['specs/notes.yaml', 'import-report.json'],
  'npx mcpgen import openapi petstore.json': ['specs/petstore/openapi.yaml', 'specs/petstore.yaml'],
  'npx mcpgen import openapi petstore.json --name petstore --generate': ['specs/petstore/openapi.yaml', 'specs/petstore.yaml', 'generated/petstore/server.ts', 'generated/petstore/upstream.ts'],
  'npx mcpgen generate specs/petstore.yaml': ['generated/petstore/server.ts', 'generated/petstore/upstream.ts', 'generated/petstore/handlers.ts'],
  'npx tsc -p generated/petstore': ['generated/petstore/dist/main.js'],
};

/** Files a line must leave byte for byte as they were (by the start of the line). */
export const KEEPS: Record<string, readonly string[]> = {};

/** Files a YAML block names beside it that its page does not show, by page (path → text, or a repository path to copy). */
export const YAML_SIDE_FILES: Record<string, Record<string, { text: string } | { copy: string }>> = {
  'docs/spec-format.md': {
    'sql/results.html': { text: '<!doctype html><title>Results</title>\n' },
    'sql/tables.yaml': { text: '$defs:\n  Table: { type: string }\ntools:\n  - name: list_tables\n    description: Lists the tables.\n    input: { type: object, properties: { schema: { type: string } } }\n  - name: drop_table\n    description: Drops a table.\n' },
  },
  // The root spec the page shows includes the file the import wrote: its tools as the page's overrides name them.
  'docs/openapi.md': {
    'petstore/openapi.yaml': {
      text: `$defs:\n  Pet: { type: object, properties: { name: { type: string } } }\ntools:\n${['getPetById', 'updatePetWithForm', 'findPetsByTags', 'deletePet'].map((name) => `  - name: ${name}\n    input: { type: object, properties: { petId: { type: integer } } }\n`).join('')}`,
    },
  },
  'docs/apps.md': { 'dashboard/forecast.html': { copy: 'specs/dashboard/forecast.html' } },
  'docs/skills.md': { 'skills/everything': { copy: 'specs/skills/everything' } },
};

/** What a spec fragment leaves to the rest of the reader's spec, appended before it is checked. */
export const YAML_REST: Record<string, string> = {
  'docs/toolsets.md': [
    'resources: [{ uri: "hub://issues/open", name: open_issues }]',
    'resourceTemplates: [{ uriTemplate: "hub://repos/{name}", name: repo }]',
    'prompts: [{ name: triage }]',
  ].join('\n'),
};
