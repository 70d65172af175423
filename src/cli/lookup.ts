// `geolookup country | subdivision | in-country | in-subdivision`: one answer on stdout. Their
// flags may come before the command (`geolookup --json country 1 2`), so the top-level help is
// theirs and lists the other commands too.

import { createGeoLookup, GeoLookupError, NotFoundError, ValidationError } from '../index.js';
import { createRequire } from 'node:module';
import { FORMAT_VERSION } from '../format/container.js';
import { resolveDataPath } from '../node/data-path.js';
import { type Answer, callOperation, OPERATIONS, type Operation, type OperationTarget } from '../operations.js';
import {
  defineCommand,
  EXIT,
  helpText,
  parseCommand,
  type Parsed,
  type Print,
  UsageError,
  usageError,
  DATA_OPTION,
} from './args.js';

const OPTIONS = {
  json: { type: 'boolean', help: 'print {"data": ...} or {"error": problem} as JSON' },
  data: DATA_OPTION,
  version: { type: 'boolean', help: "the package's version, and the dataset's format and sources" },
  'max-km': {
    type: 'string',
    value: 'KM',
    help: 'distance, nearest, nearest-subdivision: how far to search (default 50)',
  },
  layer: { type: 'string', value: 'L', help: "distance: 'country' (default) or 'subdivision'" },
} as const;

/** The CLI's flag for each optional parameter of the table's operations. */
const FLAGS = { maxKm: 'max-km', layer: 'layer' } as const;

const EXIT_TEXT =
  '0 answered (including false), 2 bad input, 3 not found, 1 other error.\n' +
  'Errors go to stderr; with --json their problem record goes to stdout as {"error": ...}.';

interface Lookup {
  args: string[];
  answer: string;
  /** The package answering it, beyond the service's contract (src/operations.ts). */
  extension?: string;
  /** The operation's optional parameters, as the CLI's flags. */
  flags: readonly (keyof typeof FLAGS)[];
  call: (geo: OperationTarget, a: string[], params: Record<string, string | undefined>) => Answer;
}

const ANSWERS: Record<Operation['answer'], string> = {
  country: 'ISO 3166-1 alpha-3 code, e.g. FRA',
  subdivision: 'ISO 3166-2 code, e.g. FR-75C',
  boolean: 'true or false',
  timezone: 'IANA time zone, e.g. Europe/Paris (needs @geolookup/timezones)',
  distance: 'metres to the nearest change of answer, or null (needs @geolookup/borders)',
  nearest: 'the region at the point, else the nearest: "ESP 1234.5" (needs @geolookup/borders)',
  regions: 'every region within the radius, one "country|subdivision CODE METRES" a line (needs @geolookup/borders)',
};

/**
 * One command per operation of the library's table: `geolookup in-country FRA 48.85 2.35`. A
 * required parameter is an argument after the point (`geolookup within 35.9 -5.3 50`), the
 * optional ones flags (`geolookup distance 35.9 -5.3 --max-km 10`).
 */
const LOOKUPS: Record<string, Lookup> = Object.fromEntries(
  OPERATIONS.map((op): [string, Lookup] => {
    const required = (op.params ?? []).filter((p) => p.required).map((p) => p.name);
    const flags = (op.params ?? []).filter((p) => !p.required).map((p) => p.name as keyof typeof FLAGS);
    const lookup = { answer: ANSWERS[op.answer], extension: op.extension, flags };
    if (op.code !== null)
      return [
        op.command,
        { ...lookup, args: ['<CODE>', '<lat>', '<lon>'], call: (geo, a) => callOperation(geo, op, a[0], a[1], a[2]) },
      ];
    return [
      op.command,
      {
        ...lookup,
        args: ['<lat>', '<lon>', ...required.map((name) => `<${name}>`)],
        call: (geo, a, params) => {
          const named = { ...params };
          required.forEach((name, i) => {
            named[name] = a[2 + i];
          });
          return callOperation(geo, op, undefined, a[0], a[1], named);
        },
      },
    ];
  }),
);

/** An answer as text: codes, booleans and metres as they are; a nearest region and a radius's regions in columns. */
function answerText(result: Answer): string {
  if (result === null || typeof result !== 'object') return String(result);
  if ('code' in result) return `${result.code} ${result.distanceM}`;
  return [
    ...result.countries.map((r) => `country ${r.code} ${r.distanceM}`),
    ...result.subdivisions.map((r) => `subdivision ${r.code} ${r.distanceM}`),
  ].join('\n');
}

export const MAIN = defineCommand({
  name: 'geolookup',
  summary: 'which country / ISO 3166-2 subdivision holds a GPS point, offline.',
  usage: [
    ...Object.entries(LOOKUPS).map(([name, l]): [string, string] => [
      `geolookup ${name} ${l.args.join(' ')}`,
      l.answer,
    ]),
    ['geolookup serve --keys FILE [--port N]', 'the HTTP API, self-hosted (serve --help)'],
    ['geolookup keys create|revoke|list --keys FILE', "manage the server's API keys (keys --help)"],
    ['geolookup batch [FILE|-] [> out.csv]', 'every row of a CSV / NDJSON file, on all cores (batch --help)'],
    ['geolookup export --layer L --format F [-o FILE]', 'boundaries as the lookup answers them (export --help)'],
    ['geolookup playground [--port N]', 'a local map page: click a point, see its answer (playground --help)'],
  ],
  options: OPTIONS,
  exit: EXIT_TEXT,
});

/** One lookup command's own help, in the shape of every command's. */
function lookupSpec(name: string, l: Lookup) {
  return defineCommand({
    name: `geolookup ${name}`,
    summary: `${l.answer}.`,
    usage: [
      `geolookup ${name} ${l.args.join(' ')}${l.flags.map((f) => ` [--${FLAGS[f]} ${OPTIONS[FLAGS[f]].value}]`).join('')} [--json] [--data FILE]`,
    ],
    options: OPTIONS,
    exit: EXIT_TEXT,
  });
}

export function runLookup(argv: string[], out: Print, err: Print): number {
  let parsed: Parsed<typeof OPTIONS>;
  try {
    parsed = parseCommand(MAIN, argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    const named = argv.find((a) => Object.hasOwn(LOOKUPS, a));
    return usageError(named ? lookupSpec(named, LOOKUPS[named]) : MAIN, e.message, err);
  }
  const { values, positionals } = parsed;
  const [command, ...args] = positionals;
  const lookup = command !== undefined && Object.hasOwn(LOOKUPS, command) ? LOOKUPS[command] : undefined;
  if (values.help) {
    out(helpText(lookup ? lookupSpec(command, lookup) : MAIN));
    return EXIT.ok;
  }
  if (values.version) return printVersion(values.data, out, err);
  if (command === undefined) {
    err(helpText(MAIN));
    return EXIT.badInput;
  }
  if (!lookup) return usageError(MAIN, `unknown command "${command}"`, err);
  if (lookup.extension && !extensionOf(lookup.extension)) {
    err(
      `geolookup ${command}: this command needs ${lookup.extension}; install it beside geolookup: npm install ${lookup.extension}`,
    );
    return EXIT.error;
  }
  if (args.length !== lookup.args.length)
    return usageError(lookupSpec(command, lookup), `takes ${lookup.args.length} arguments, got ${args.length}`, err);
  const params: Record<string, string | undefined> = {};
  for (const [name, flag] of Object.entries(FLAGS) as [keyof typeof FLAGS, (typeof FLAGS)[keyof typeof FLAGS]][]) {
    if (values[flag] === undefined) continue;
    if (!lookup.flags.includes(name)) return usageError(lookupSpec(command, lookup), `takes no --${flag}`, err);
    params[name] = values[flag];
  }
  return answer(lookup, args, params, values, out, err);
}

function answer(
  lookup: Lookup,
  args: string[],
  params: Record<string, string | undefined>,
  values: { json?: boolean; data?: string },
  out: Print,
  err: Print,
) {
  try {
    const result = lookup.call(targetOf(lookup, values.data), args, params);
    out(values.json ? JSON.stringify({ data: result }) : answerText(result));
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
 * What answers the command: the dataset (--data), or an extension package. @geolookup/timezones
 * reads its own dataset (--data names the world dataset only); @geolookup/borders measures on the
 * dataset --data names, so its lines must come from that dataset (the lite one is refused).
 */
function targetOf(lookup: Lookup, data: string | undefined): OperationTarget {
  if (!lookup.extension) return createGeoLookup(resolveDataPath(data));
  const mod = extensionOf(lookup.extension)!;
  if (lookup.extension !== '@geolookup/borders' || data === undefined) return mod;
  const borders = mod as unknown as {
    createBorderLookup(o: { geo: string; data: string }): OperationTarget;
    bordersDataPath(): string;
  };
  return borders.createBorderLookup({ geo: resolveDataPath(data), data: borders.bordersDataPath() });
}

/**
 * An extension package's Node entry (its CommonJS build, so the lookup stays synchronous), or null
 * when it is not installed; a dependency of it missing is its own error, thrown as it is.
 */
function extensionOf(pkg: string): OperationTarget | null {
  try {
    return createRequire(import.meta.url)(pkg) as OperationTarget;
  } catch (e) {
    if ((e as { code?: string }).code === 'MODULE_NOT_FOUND' && String(e).includes(`'${pkg}'`)) return null;
    throw e;
  }
}

/** `geolookup --version`: this package, and the dataset a lookup would read (--data), with its sources. */
function printVersion(data: string | undefined, out: Print, err: Print): number {
  const pkg = createRequire(import.meta.url)('geolookup/package.json') as { version: string };
  out(`geolookup ${pkg.version}`);
  try {
    const path = resolveDataPath(data);
    const meta = createGeoLookup(path).meta;
    out(`dataset ${meta.name} (format ${FORMAT_VERSION}): ${path}`);
    for (const s of meta.sources) out(`  ${s.name} ${s.version}${s.date ? ` (data as of ${s.date})` : ''}`);
    return EXIT.ok;
  } catch (e) {
    if (!(e instanceof GeoLookupError)) throw e;
    err(`geolookup: ${e.message}`);
    return EXIT.error;
  }
}
