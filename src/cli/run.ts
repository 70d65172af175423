// The CLI logic, separate from the bin so tests can drive it in-process.

import { createGeoLookup, defaultDataPath, GeoLookupError, NotFoundError, ValidationError } from '../index.js';
import { runKeys, runServe } from './serve.js';
import { runBatch } from '../batch/run.js';
import { runExport } from './export.js';

export const EXIT = { ok: 0, error: 1, badInput: 2, notFound: 3 } as const;

const HELP = `geolookup: which country / ISO 3166-2 subdivision holds a GPS point, offline.

Usage:
  geolookup country <lat> <lon>                  ISO 3166-1 alpha-3 code, e.g. FRA
  geolookup subdivision <lat> <lon>              ISO 3166-2 code, e.g. FR-75C
  geolookup in-country <CODE> <lat> <lon>        true or false
  geolookup in-subdivision <CODE> <lat> <lon>    true or false
  geolookup serve --keys FILE [--port N]         the HTTP API, self-hosted (serve --help)
  geolookup keys create|revoke|list --keys FILE  manage the server's API keys (keys --help)
  geolookup batch [FILE|-] [> out.csv]           every row of a CSV / NDJSON file, on all cores (batch --help)
  geolookup export --layer L --format F [-o FILE] boundaries as the lookup answers them (export --help)

Options:
  --json         print {"data": ...} or {"error": problem} as JSON
  --data FILE    use another dataset built by build-data
  -h, --help     this text

Exit status: 0 answered (including false), 2 bad input, 3 not found, 1 other error.
Errors go to stderr.`;

export function run(argv: string[], out: (s: string) => void, err: (s: string) => void): number {
  if (argv[0] === 'serve') return runServe(argv.slice(1), out, err);
  if (argv[0] === 'keys') return runKeys(argv.slice(1), out, err);
  if (argv[0] === 'batch') return runBatch(argv.slice(1), out, err);
  if (argv[0] === 'export') return runExport(argv.slice(1), out, err);
  let json = false;
  let data: string | undefined;
  const pos: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') json = true;
    else if (a === '-h' || a === '--help') {
      out(HELP);
      return EXIT.ok;
    } else if (a === '--data') data = argv[++i];
    else if (a.startsWith('--data=')) data = a.slice(7);
    else if (/^--?[A-Za-z]/.test(a)) {
      err(`geolookup: unknown option ${a}\n\n${HELP}`);
      return EXIT.badInput;
    } else pos.push(a);
  }
  const [command, ...args] = pos;
  const arity: Record<string, number> = { country: 2, subdivision: 2, 'in-country': 3, 'in-subdivision': 3 };
  if (!command || !(command in arity)) {
    err(command ? `geolookup: unknown command "${command}"\n\n${HELP}` : HELP);
    return EXIT.badInput;
  }
  if (args.length !== arity[command]) {
    err(`geolookup: ${command} takes ${arity[command]} arguments, got ${args.length}\n\n${HELP}`);
    return EXIT.badInput;
  }
  try {
    const geo = createGeoLookup(data ?? defaultDataPath());
    let result: string | boolean;
    if (command === 'country') result = geo.countryFromGps(args[0], args[1]);
    else if (command === 'subdivision') result = geo.subdivisionFromGps(args[0], args[1]);
    else if (command === 'in-country') result = geo.isInCountry(args[0], args[1], args[2]);
    else result = geo.isInSubdivision(args[0], args[1], args[2]);
    out(json ? JSON.stringify({ data: result }) : String(result));
    return EXIT.ok;
  } catch (e) {
    if (!(e instanceof GeoLookupError)) throw e;
    err(json ? JSON.stringify({ error: e.toProblem() }) : `geolookup: ${e.message}`);
    if (e instanceof ValidationError) return EXIT.badInput;
    if (e instanceof NotFoundError) return EXIT.notFound;
    return EXIT.error;
  }
}
