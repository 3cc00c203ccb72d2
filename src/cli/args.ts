import { didYouMean } from '../common/suggest.js';
import { UsageError } from '../errors.js';

export interface FlagSpec {
  readonly name: string;
  readonly value?: boolean;
  readonly choices?: readonly string[];
}

export interface Parsed {
  readonly positional: string[];
  readonly flags: Map<string, string | true>;
}

/** Strict argv parsing: an unknown or malformed flag is a usage error, never silently ignored. */
export function parseArgs(argv: readonly string[], specs: readonly FlagSpec[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = (eq >= 0 ? arg.slice(0, eq) : arg).replace(/^--?/, '');
    const spec = specs.find((s) => s.name === name);
    if (spec === undefined) throw new UsageError(unknownOption(arg, name, specs));
    if (!spec.value) {
      if (eq >= 0) throw new UsageError(`option --${name} takes no value`);
      flags.set(name, true);
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`option --${name} needs a value`);
    if (spec.choices && !spec.choices.includes(value)) throw new UsageError(`option --${name} must be one of ${spec.choices.join(', ')}; got ${JSON.stringify(value)}`);
    flags.set(name, value);
  }
  return { positional, flags };
}

export function stringFlag(args: Parsed, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

function unknownOption(arg: string, name: string, specs: readonly FlagSpec[]): string {
  const guess = didYouMean(name, specs.map((s) => s.name));
  return `unknown option ${JSON.stringify(arg)}${guess === undefined ? '' : `; did you mean --${guess}?`}`;
}
