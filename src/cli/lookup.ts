// `geolookup country | subdivision | in-country | in-subdivision`: one answer on stdout. Their
// flags may come before the command (`geolookup --json country 1 2`), so the top-level help is
// theirs and lists the other commands too.

import { createGeoLookup, GeoLookupError, NotFoundError, preload, ValidationError } from '../index.js';
import { createRequire } from 'node:module';
import { FORMAT_VERSION } from '../format/container.js';
import { DATA_PATH_ENV, resolveDataPath } from '../node/data-path.js';
import { type Answer, callOperation, flagOf, type Operation, type Param } from '../extend/operations.js';
import { type Extension, operationsOf } from '../extend/extension.js';
import { findExtensions, openExtension } from '../extend/loader.js';
import {
  type CommandSpec,
  defineCommand,
  EXIT,
  helpText,
  type OptionSpecs,
  parseCommand,
  type Print,
  UsageError,
  usageError,
  DATA_OPTION,
} from './args.js';

const BASE_OPTIONS = {
  json: { type: 'boolean', help: 'print {"data": ...} or {"error": problem} as JSON' },
  data: DATA_OPTION,
  version: { type: 'boolean', help: "the package's version, and the dataset's format and sources" },
} as const;

const EXIT_TEXT =
  '0 answered (including false), 2 bad input, 3 not found, 1 other error.\n' +
  'Errors go to stderr; with --json their problem record goes to stdout as {"error": ...}.';

/** What each answer kind is, for the help; an operation's `describe` says it otherwise. */
const ANSWERS: Record<Operation['answer'], string> = {
  country: 'ISO 3166-1 alpha-3 code, e.g. FRA',
  subdivision: 'ISO 3166-2 code, e.g. FR-75C',
  boolean: 'true or false',
  text: 'text',
  json: 'JSON',
};

/** One command of the operation table: its positional arguments and its flags (optional parameters). */
interface Lookup {
  op: Operation;
  args: string[];
  /** Required parameters, as arguments after the point (`geolookup within 35.9 -5.3 50`). */
  required: readonly Param[];
  flags: readonly Param[];
}

/** The commands: the contract's operations, then the installed extensions' (src/extend/loader.ts). */
interface Table {
  lookups: Record<string, Lookup>;
  extensions: readonly Extension[];
  options: OptionSpecs;
  main: CommandSpec;
}

function table(): Table {
  const extensions = findExtensions();
  const lookups: Record<string, Lookup> = {};
  const options: OptionSpecs = { ...BASE_OPTIONS };
  for (const op of operationsOf(extensions)) {
    const params = op.params ?? [];
    const flags = params.filter((p) => !p.required);
    const required = params.filter((p) => p.required);
    const point = ['<lat>', '<lon>', ...required.map((p) => `<${p.name}>`)];
    lookups[op.command] = { op, args: op.code === null ? point : ['<CODE>', '<lat>', '<lon>'], required, flags };
    for (const p of flags) {
      const users = Object.values(lookups).filter((l) => l.flags.some((f) => f.name === p.name));
      options[flagOf(p)] = {
        type: 'string',
        value: p.placeholder,
        help: `${users.map((l) => l.op.command).join(', ')}: ${p.summary}`,
      };
    }
  }
  const main = defineCommand({
    name: 'geolookup',
    summary: 'which country / ISO 3166-2 subdivision holds a GPS point, offline.',
    usage: [
      ...Object.entries(lookups).map(([name, l]): [string, string] => [
        `geolookup ${name} ${l.args.join(' ')}`,
        answerLine(l.op),
      ]),
      ['geolookup serve --keys FILE [--port N]', 'the HTTP API, self-hosted (serve --help)'],
      ['geolookup keys create|revoke|list --keys FILE', "manage the server's API keys (keys --help)"],
      ['geolookup batch [FILE|-] [> out.csv]', 'every row of a CSV / NDJSON file, on all cores (batch --help)'],
      ['geolookup export --layer L --format F [-o FILE]', 'boundaries as the lookup answers them (export --help)'],
      ['geolookup playground [--port N]', 'a local map page: click a point, see its answer (playground --help)'],
    ],
    options,
    notes: 'Extensions installed beside geolookup add commands (docs/EXTENDING.md).',
    exit: EXIT_TEXT,
  });
  return { lookups, extensions, options, main };
}

const answerLine = (op: Operation): string =>
  `${op.describe ?? ANSWERS[op.answer]}${op.extension ? ` (from ${op.extension})` : ''}`;

/** An answer as text: codes, booleans and text as they are; a JSON answer as its operation writes it. */
function answerText(op: Operation, result: Answer): string {
  if (op.answer !== 'json') return String(result);
  return op.text ? op.text(result) : JSON.stringify(result);
}

/** One lookup command's own help: its flags only. */
function lookupSpec(name: string, l: Lookup) {
  const options: OptionSpecs = { ...BASE_OPTIONS };
  for (const p of l.flags) options[flagOf(p)] = { type: 'string', value: p.placeholder, help: p.summary };
  return defineCommand({
    name: `geolookup ${name}`,
    summary: `${answerLine(l.op)}.`,
    usage: [
      `geolookup ${name} ${l.args.join(' ')}${l.flags.map((p) => ` [--${flagOf(p)} ${p.placeholder}]`).join('')} [--json] [--data FILE]`,
    ],
    options,
    exit: EXIT_TEXT,
  });
}

export function runLookup(argv: string[], out: Print, err: Print): number {
  const t = table();
  const named = argv.find((a) => Object.hasOwn(t.lookups, a));
  const spec = named ? lookupSpec(named, t.lookups[named]) : t.main;
  let parsed: ReturnType<typeof parseCommand<OptionSpecs>>;
  try {
    parsed = parseCommand(spec, argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usageError(spec, e.message, err);
  }
  const { values, positionals } = parsed;
  const [command, ...args] = positionals;
  const lookup = command !== undefined && Object.hasOwn(t.lookups, command) ? t.lookups[command] : undefined;
  if (values.help) {
    out(helpText(spec));
    return EXIT.ok;
  }
  if (values.version) return printVersion(t, values.data as string | undefined, out, err);
  if (command === undefined) {
    err(helpText(t.main));
    return EXIT.badInput;
  }
  if (!lookup) return usageError(t.main, `unknown command "${command}"`, err);
  if (args.length !== lookup.args.length)
    return usageError(spec, `takes ${lookup.args.length} arguments, got ${args.length}`, err);
  const params: Record<string, string | undefined> = {};
  for (const p of lookup.flags) params[p.name] = values[flagOf(p)] as string | undefined;
  lookup.required.forEach((p, i) => {
    params[p.name] = args[2 + i];
  });
  return answer(t, lookup, args, params, values as { json?: boolean; data?: string }, out, err);
}

function answer(
  t: Table,
  lookup: Lookup,
  args: string[],
  params: Record<string, string | undefined>,
  values: { json?: boolean; data?: string },
  out: Print,
  err: Print,
) {
  try {
    const { op } = lookup;
    const target = targetOf(t, op, values.data);
    const result =
      op.code !== null
        ? callOperation(target, op, args[0], args[1], args[2])
        : callOperation(target, op, undefined, args[0], args[1], params);
    out(values.json ? JSON.stringify({ data: result }) : answerText(op, result));
    return EXIT.ok;
  } catch (e) {
    if (!(e instanceof GeoLookupError)) throw e;
    // With --json the answer, an error's included, is for the program reading stdout (`| jq`).
    if (values.json) out(JSON.stringify({ error: e.toProblem() }));
    err(`geolookup: ${e.message}`);
    if (e instanceof ValidationError) return EXIT.badInput;
    if (e instanceof NotFoundError) return EXIT.notFound;
    return EXIT.error;
  }
}

/**
 * What answers the command: the dataset --data names (the embedded one by default), or the
 * extension opened over it (a DataError when it cannot answer over that dataset: the lite one).
 */
function targetOf(t: Table, op: Operation, data: string | undefined): object {
  // Without --data, the embedded lookup the process keeps (preload): loaded once, not per command.
  const geo = data === undefined ? preload() : createGeoLookup(resolveDataPath(data));
  if (!op.extension) return geo;
  const extension = t.extensions.find((e) => e.name === op.extension)!;
  return openExtension(extension, geo, data === undefined && !process.env[DATA_PATH_ENV]).target;
}

/** `geolookup --version`: this package, and the dataset a lookup would read (--data), with its sources. */
function printVersion(t: Table, data: string | undefined, out: Print, err: Print): number {
  const pkg = createRequire(import.meta.url)('geolookup/package.json') as { version: string };
  out(`geolookup ${pkg.version}`);
  try {
    const path = resolveDataPath(data);
    const meta = createGeoLookup(path).meta;
    out(`dataset ${meta.name} (format ${FORMAT_VERSION}): ${path}`);
    for (const s of meta.sources) out(`  ${s.name} ${s.version}${s.date ? ` (data as of ${s.date})` : ''}`);
    for (const e of t.extensions) out(`extension ${e.name}: ${e.operations.map((op) => op.command).join(', ')}`);
    return EXIT.ok;
  } catch (e) {
    if (!(e instanceof GeoLookupError)) throw e;
    err(`geolookup: ${e.message}`);
    return EXIT.error;
  }
}
