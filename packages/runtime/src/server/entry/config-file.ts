// `main.js --config settings.json` (or MCPGEN_CONFIG=settings.json): the entry point's settings from a file,
// for an environment that keeps its configuration in a mounted file rather than in variables. The file is a
// JSON object keyed by the variable names `main.js --help` lists (`{"PORT": 8080, "MCPGEN_RATE_LIMIT":
// "100/1m"}`); each becomes the default of its variable, so a flag wins over the variable, the variable over
// the file. Values are checked where the variables are (one line, exit 1); an unknown key is refused here,
// with a did-you-mean, since a typo would otherwise be a setting silently not applied.
import { readFileSync } from 'node:fs';
import { didYouMean } from '../../shared/suggest.js';
import { REDIS_VARIABLES } from './redis-env.js';

/** Every variable a generated entry point reads (the flags' variables and the deployment settings). */
export const SETTING_VARIABLES = [
  'HOST', 'PORT', 'MCPGEN_ALLOWED_HOSTS', 'MCPGEN_ALLOWED_ORIGINS', 'MCPGEN_CORS_ORIGINS', 'MCPGEN_TOOLSETS', 'MCPGEN_READ_ONLY',
  'MCPGEN_HEALTH_PATH', 'MCPGEN_READY_PATH', 'MCPGEN_SHUTDOWN_DELAY_SECONDS', 'MCPGEN_AUTH_ISSUERS', 'MCPGEN_AUTH_RESOURCE',
  ...REDIS_VARIABLES, 'MCPGEN_REDIS_CHANNEL', 'MCPGEN_REQUEST_STATE_KEYS', 'MCPGEN_REQUEST_STATE_TTL_SECONDS', 'MCPGEN_TASK_LEASE_MS',
  'MCPGEN_TASK_RESULT_RETRY_MS', 'MCPGEN_SKILLS_DIR', 'MCPGEN_TELEMETRY', 'MCPGEN_ACCESS_LOG', 'MCPGEN_RATE_LIMIT', 'MCPGEN_RATE_LIMIT_TOOLS',
  'MCPGEN_LOG_FORMAT', 'MCPGEN_LOG_LEVEL', 'MCPGEN_TASK_ROLE', 'MCPGEN_WORKER_CONCURRENCY',
] as const;

type Env = Record<string, string | undefined>;

/** argv without `--config <file>`, and the file's settings (undefined without a file); or the one-line error. */
export function configFileSettings(argv: readonly string[], env: Readonly<Env>, extra: readonly string[] = []): { argv: string[]; settings: Record<string, string> | undefined } | { error: string } {
  const rest: string[] = [];
  let file: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--config') {
      file = argv[++i];
      if (file === undefined || file === '') return { error: '--config needs a file (a JSON object of settings)' };
    } else if (a.startsWith('--config=')) file = a.slice('--config='.length);
    else rest.push(a);
  }
  file ??= env.MCPGEN_CONFIG !== undefined && env.MCPGEN_CONFIG !== '' ? env.MCPGEN_CONFIG : undefined;
  if (file === undefined) return { argv: rest, settings: undefined };
  const read = readSettings(file, [...SETTING_VARIABLES, ...extra]);
  return 'error' in read ? read : { argv: rest, settings: read.settings };
}

/** `known`: SETTING_VARIABLES and the server's own (its upstream API's). */
function readSettings(file: string, known: readonly string[]): { settings: Record<string, string> } | { error: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return { error: `cannot read the config file ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}` };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { error: `config file ${file} is not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { error: `config file ${file} must hold a JSON object of settings ({"PORT": 8080, …})` };
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    if (!known.includes(key)) {
      const hint = didYouMean(key, known);
      return { error: `config file ${file}: unknown setting ${JSON.stringify(key)}${hint !== undefined ? ` (did you mean ${hint}?)` : ' (the settings are the variables main.js --help lists)'}` };
    }
    if (typeof value === 'boolean') out[key] = value ? '1' : '0';
    else if (typeof value === 'string' || typeof value === 'number') out[key] = String(value);
    else return { error: `config file ${file}: ${key} must be a string, number or boolean` };
  }
  return { settings: out };
}

/** The environment with the file's settings as defaults (a variable set, even empty, wins). */
export function withFileDefaults(env: Env, settings: Readonly<Record<string, string>>): void {
  for (const [key, value] of Object.entries(settings)) if (env[key] === undefined) env[key] = value;
}
