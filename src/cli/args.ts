// The one argument parser and help format of the CLI: node:util parseArgs (strict: an unknown
// flag is an error), a command's options declared once for the parser and its help text, and
// the exit statuses every command shares.

import { parseArgs, type ParseArgsConfig } from 'node:util';

export const EXIT = { ok: 0, error: 1, badInput: 2, notFound: 3, interrupted: 130 } as const;

/** Where a command prints a line (console.log / console.error in the bin, arrays in tests). */
export type Print = (s: string) => void;

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** The value's placeholder in the help: `--port N`. */
  value?: string;
  /** Help text; '\n' starts a continuation line under the first. */
  help: string;
  /** A string option that may be given more than once: its value is the list. */
  multiple?: boolean;
}

export type OptionSpecs = Record<string, OptionSpec>;

/** --data, as every command that reads a dataset takes it: a name the package ships, or a file. */
export const DATA_OPTION = {
  type: 'string',
  value: 'lite|FILE',
  help: "'lite' (simplified borders, geolookup's docs/LITE.md) or a dataset file built by build-data (default: the world dataset)",
} as const;

export interface CommandSpec<O extends OptionSpecs = OptionSpecs> {
  /** As the user types it: `geolookup batch`; messages start with it. */
  name: string;
  summary: string;
  /** Invocations after the name's first word; a pair is [syntax, what it does]. */
  usage: (string | [string, string])[];
  options: O;
  /** Paragraphs between the options and the exit status. */
  notes?: string;
  exit: string;
}

export type Values<O extends OptionSpecs> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : O[K]['multiple'] extends true ? string[] : string;
} & { help?: boolean };

export interface Parsed<O extends OptionSpecs> {
  values: Values<O>;
  positionals: string[];
}

/** Bad usage: the command prints the message and its help on stderr and exits 2. */
export class UsageError extends Error {}

/** Identity, so the option names and types of a command spec are inferred as literals. */
export function defineCommand<const O extends OptionSpecs>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec;
}

const HELP_OPTION: OptionSpec = { type: 'boolean', short: 'h', help: 'this text' };

/** Rows of [left, right], the right column aligned; continuation lines ('\n') under it. */
function columns(rows: [string, string][], min: number): string {
  const width = Math.max(min, ...rows.map(([left]) => left.length + 2));
  return rows
    .map(([left, right]) => `  ${left.padEnd(width)}${right.split('\n').join(`\n  ${' '.repeat(width)}`)}`.trimEnd())
    .join('\n');
}

function flagOf(name: string, o: OptionSpec): string {
  const long = `--${name}${o.value ? ` ${o.value}` : ''}`;
  return o.short ? `-${o.short}, ${long}` : long;
}

export function helpText(spec: CommandSpec): string {
  const usage = spec.usage.map((u): [string, string] => (typeof u === 'string' ? [u, ''] : u));
  const options = Object.entries({ ...spec.options, help: HELP_OPTION }).map(([name, o]): [string, string] => [
    flagOf(name, o),
    o.help,
  ]);
  const parts = [`${spec.name}: ${spec.summary}`, `Usage:\n${columns(usage, 0)}`, `Options:\n${columns(options, 25)}`];
  if (spec.notes) parts.push(spec.notes);
  parts.push(`Exit status: ${spec.exit}`);
  return parts.join('\n\n');
}

/** `-5`, `-.5`: a negative number is a value, never a flag. */
const NEGATIVE_NUMBER = /^-\.?\d/;

/**
 * Splits the positionals off before parseArgs sees the flags, with each flag's value glued on
 * (`--lat=-5`): parseArgs alone takes `-33.8` for an unknown flag and refuses a value that
 * starts with '-'. Everything after `--` is positional.
 */
function separate(argv: string[], options: OptionSpecs): { flags: string[]; positionals: string[] } {
  const byShort = new Map(Object.entries(options).map(([name, o]) => [o.short, name]));
  const flags: string[] = [];
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a === '-' || !a.startsWith('-') || NEGATIVE_NUMBER.test(a)) {
      positionals.push(a);
      continue;
    }
    const name = a.startsWith('--') ? a.slice(2) : a.length === 2 ? byShort.get(a[1]) : undefined;
    const takesValue = name !== undefined && Object.hasOwn(options, name) && options[name].type === 'string';
    flags.push(takesValue && i + 1 < argv.length ? `--${name}=${argv[++i]}` : a);
  }
  return { flags, positionals };
}

/** parseArgs' messages name the flag in quotes, with advice that does not fit here. */
function usageMessage(e: NodeJS.ErrnoException): string {
  const flag = /'(?:-\w, )?(--?[\w-]+)/.exec(e.message)?.[1] ?? e.message;
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${flag}`;
  if (/argument missing/.test(e.message)) return `${flag} needs a value`;
  if (/does not take an argument/.test(e.message)) return `${flag} takes no value`;
  return e.message;
}

/** The flags and positionals of argv, or a UsageError. `--name=value` and `--name value` both work. */
export function parseCommand<O extends OptionSpecs>(spec: CommandSpec<O>, argv: string[]): Parsed<O> {
  const options = { ...spec.options, help: HELP_OPTION };
  const { flags, positionals } = separate(argv, options);
  const config: ParseArgsConfig['options'] = {};
  for (const [name, o] of Object.entries(options))
    config[name] = { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) };
  try {
    const { values, tokens } = parseArgs({ args: flags, options: config, strict: true, tokens: true });
    // parseArgs keeps the last of a repeated flag; the server answers 400 to a repeated parameter.
    const seen = new Set<string>();
    for (const t of tokens)
      if (t.kind === 'option' && !options[t.name]?.multiple) {
        if (seen.has(t.name)) return fail(`--${t.name} is given more than once`);
        seen.add(t.name);
      }
    return { values: values as Values<O>, positionals };
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(usageMessage(e as NodeJS.ErrnoException));
  }
}

function fail(message: string): never {
  throw new UsageError(message);
}

/** Prints `<name>: <message>`, a blank line and the command's help on stderr; returns EXIT.badInput. */
export function usageError(spec: CommandSpec, message: string, err: Print): number {
  err(`${spec.name}: ${message}\n\n${helpText(spec)}`);
  return EXIT.badInput;
}

/**
 * Parses argv for `spec` and runs `body` with the result: `--help` prints the help and exits 0,
 * a UsageError (from the parser or thrown by `body`) exits 2 with the message and the help.
 */
export function runCommand<O extends OptionSpecs>(
  spec: CommandSpec<O>,
  argv: string[],
  out: Print,
  err: Print,
  body: (args: Parsed<O>) => number,
): number {
  try {
    const args = parseCommand(spec, argv);
    if (args.values.help) {
      out(helpText(spec));
      return EXIT.ok;
    }
    return body(args);
  } catch (e) {
    if (e instanceof UsageError) return usageError(spec, e.message, err);
    throw e;
  }
}

/** A flag's whole-number value from min to max, undefined when the flag is absent. */
export function wholeNumber(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
  throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${value}"`);
}
