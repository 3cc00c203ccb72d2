export const HELP = `mcpgen — typed MCP (2026-07-28) servers, clients and transports from YAML specs

Usage:
  mcpgen check [spec-or-glob ...] [--target LIST] [--format text|json] [--config FILE]
      Validate specs (all problems, with file:line:col). Without arguments the specs
      listed in mcpgen.config.yaml are checked. --target openai-strict,anthropic,gemini
      also reports what each model provider refuses or its bridge changes (docs/providers.md).
  mcpgen generate [spec-or-glob ...] [--out DIR] [--check] [--watch] [--format text|json] [--config FILE]
      Validate, then write the generated TypeScript into DIR/<server-name>/ (default:
      "out" from mcpgen.config.yaml, else ./generated). --check writes nothing and
      exits 1 naming every stale, missing or extra file (--format json: as MCPG102
      diagnostics on stdout). --watch regenerates on change (atomic saves included).
      Warns, with the npm install line, when what the generated code loads at run time
      (@mcpgen/runtime and the MCP SDK) does not resolve from DIR.
  mcpgen import openapi <file|url> [--out SPEC] [--handlers FILE] [--name NAME]
                [--tag T,..] [--operation GLOB,..] [--method M,..] [--force] [--generate]
      Turn an OpenAPI description (Swagger 2.0, OpenAPI 3.0, 3.1) into tools bound to their
      operations (\`http:\`, \`upstream:\`) in a file the import owns and rewrites on each run
      (<SPEC without .yaml>/openapi.yaml), and the spec SPEC that includes it (default
      specs/<name>.yaml; written only when it does not exist: your changes to the tools go
      there under overrides:), then check SPEC; \`generate\` wires the proxy that calls the
      API. An owned file whose first line is no longer the import's is not replaced without
      --force. An earlier import's handlers file (--handlers, default
      generated/<name>/handlers.ts) is removed while its first line is still the import's.
      --generate then runs \`generate SPEC\` in the same process (faster than two commands,
      same files): its check replaces the import's, and the output goes where \`generate\`
      writes it (config "out", else ./generated). See docs/openapi.md.
  mcpgen breaking --base REF|FILE|DIR [spec-or-glob ...] [--format text|json|markdown|github] [--config FILE]
      Compare the specs with an old version: a git revision (read with git, the work
      tree untouched), a spec file, or a folder holding the same spec paths. Reports
      each change with a rule id, category and file:line:col in both versions; exits
      1 when a breaking change falls in a failing category (config \`breaking.failOn\`,
      \`breaking.ignore\`). --against is the same as --base. See docs/breaking-changes.md.
  mcpgen diff --base REF|FILE|DIR [spec-or-glob ...] [--format ...]
      The same report as \`breaking\`, always exiting 0 when both versions validate.
  mcpgen test <spec> (--url URL | -- command [args ...]) [--reporter text|json|junit]
              [--seed N] [--runs N] [--max-calls N] [--timeout MS] [--concurrency N]
              [--include-destructive] [--read-only-only] [--allow-tool-errors]
              [--exclude NAME,..] [--save FILE] [--replay FILE]
      Contract-test a running server (any MCP server, over Streamable HTTP or a command over
      stdio) against the spec: its lists, then the spec's examples (each answer must contain what
      its example shows), then per tool valid inputs (fast-check, from the input
      schema) must give results the output schema accepts, invalid ones must be refused as
      invalid params, and over HTTP mismatched Mcp-Name / Mcp-Param-* headers must be refused.
      Failures are shrunk, saved (--save, default mcpgen-test-failures.json) and sent again with
      --replay FILE. Tools with destructiveHint are not called without --include-destructive.
      Exit 1 on any failure. Needs the optional peer @modelcontextprotocol/client. See docs/testing.md.
  mcpgen init [spec-file] [--force]
      Write a starter spec (default specs/server.yaml) and mcpgen.config.yaml, then
      print the next steps.
  mcpgen lsp [--stdio]
      Language server over stdin/stdout for spec files and their includes: check's diagnostics
      as you type, quick fixes, hover, completion, go to definition, references, rename and
      the outline. Editors start it themselves; see docs/editor.md.
  mcpgen import mcp (--url URL | -- command [args ...]) [--out FILE] [--hoist-defs]
                   [--era auto|2025|2026] [--timeout MS] [--report FILE]
      Connect to a running MCP server (Streamable HTTP, or a command served over stdio) and write
      its tools, resources, templates and prompts as a spec (stdout without --out). What the import
      changed or dropped, and where the generated server will answer differently, goes to stderr
      (--report FILE: as JSON). --hoist-defs moves repeated sub-schemas into $defs (changes the wire).
      Needs the optional peer @modelcontextprotocol/client. See docs/migrating.md.

Options:
  --format text|json   diagnostics as text with code frames (stderr) or JSON (stdout);
                       breaking/diff also take markdown and github (stdout; text on stderr)
  --color, --no-color  force colors on or off (default: on when stderr is a TTY)
  --config FILE        use this config instead of ./mcpgen.config.yaml
  -h, --help           show this help
  -v, --version        print the version

Exit codes: 0 success, 1 errors in specs, stale output with --check, a breaking change
(\`breaking\`), a failed check (\`test\`), or a write the
file system refused (one line naming the path), 2 usage error,
3 internal error (a bug: please report it with the printed stack).
`;

// Per-command help lists only what that command accepts (init takes none of the global options).
const COMMAND_HELP: Record<string, string> = {
  check: `Usage: mcpgen check [spec-or-glob ...] [--target LIST] [--format text|json] [--config FILE] [--color|--no-color]
  Validate specs (all problems, with file:line:col). Without arguments the specs
  listed in mcpgen.config.yaml are checked. --target openai-strict,anthropic,gemini
  (or the config's \`targets\`) also reports, per tool, what each model provider refuses
  or its generated bridge changes, and why (warnings MCPG167-MCPG170; docs/providers.md).
`,
  generate: `Usage: mcpgen generate [spec-or-glob ...] [--out DIR] [--check] [--watch] [--format text|json] [--config FILE] [--color|--no-color]
  Validate, then write the generated TypeScript into DIR/<server-name>/ (default:
  "out" from mcpgen.config.yaml, else ./generated). --check writes nothing and exits 1
  naming every stale, missing or extra file. --watch regenerates on change.
`,
  lsp: `Usage: mcpgen lsp [--stdio]
  Language server (LSP) over stdin/stdout for spec files and the files they include, in the
  folder the editor opens (its mcpgen.config.yaml, every YAML file starting with \`mcpgen:\`):
  check's diagnostics as you type (provider targets included), quick fixes, hover, completion,
  go to definition, references, rename and document symbols. --stdio is accepted (and is the
  only transport). See docs/editor.md.
`,
  test: `Usage: mcpgen test <spec> (--url URL | -- command [args ...]) [options]
  Contract-test a running MCP server against the spec with the official client (docs/testing.md).
  --reporter text|json|junit   report on stdout (default text)
  --seed N                     fast-check seed: the same seed sends the same calls (default 42)
  --runs N                     generated values per check, before shrinking (default 30)
  --max-calls N                calls in the whole run, shrinking included (default 2000)
  --timeout MS                 per call; no answer by then is a hang (default 10000)
  --concurrency N              tools, prompts and templates checked at once (default 1)
  --include-destructive        also call tools marked destructiveHint: true
  --read-only-only             call only tools marked readOnlyHint: true
  --allow-tool-errors          a tool error (isError) on valid arguments passes
  --exclude NAME,..            tools, prompts, templates not called ('*': compare the lists only)
  --save FILE                  where failing calls are saved (default mcpgen-test-failures.json)
  --replay FILE                send only the saved failing calls again
  Exit 0 when every check passed or was skipped, 1 on any failure, 2 usage error.
`,
  init: `Usage: mcpgen init [spec-file] [--force]
  Write a starter spec (default specs/server.yaml) and mcpgen.config.yaml, then
  print the next steps. --force overwrites existing files.
`,
};

export function commandHelp(command: string): string {
  return COMMAND_HELP[command] ?? HELP;
}
