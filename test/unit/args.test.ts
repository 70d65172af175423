// The CLI's one argument parser and help format (src/cli/args.ts), and every command's use of
// it through run(): nothing here reads a dataset.
import { describe, expect, it } from 'vitest';
import {
  defineCommand,
  EXIT,
  helpText,
  parseCommand,
  runCommand,
  UsageError,
  wholeNumber,
} from '../../src/cli/args.js';
import { PACKAGE_COMMANDS, run as runCore } from '../../src/cli/run.js';
import { run as runServer } from '../../packages/server/src/cli/index.js';

/** Every command, in process: the core's own, and @geolookup/server's as the core's dispatch runs them. */
function run(argv: string[], out: (s: string) => void, err: (s: string) => void): number {
  if (argv[0] !== undefined && Object.hasOwn(PACKAGE_COMMANDS, argv[0])) return runServer(argv, out, err);
  const code = runCore(argv, out, err);
  if (typeof code !== 'number') throw new Error(`${argv[0]} ran asynchronously`);
  return code;
}

const TOY = defineCommand({
  name: 'geolookup toy',
  summary: 'a command for the tests.',
  usage: ['geolookup toy [options] FILE', ['geolookup toy --x N', 'with a note']],
  options: {
    x: { type: 'string', value: 'N', help: 'a number' },
    output: { type: 'string', short: 'o', value: 'FILE', help: 'a file\nover two lines' },
    json: { type: 'boolean', help: 'a switch' },
  },
  notes: 'Notes.',
  exit: '0 done, 2 bad usage.',
});

function capture(fn: (out: (s: string) => void, err: (s: string) => void) => number) {
  const out: string[] = [];
  const err: string[] = [];
  const code = fn(
    (s) => out.push(s),
    (s) => err.push(s),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('parseCommand', () => {
  it('takes --name=value and --name value alike, and short aliases', () => {
    expect(parseCommand(TOY, ['--x=1']).values.x).toBe('1');
    expect(parseCommand(TOY, ['--x', '1']).values.x).toBe('1');
    expect(parseCommand(TOY, ['-o', 'out.csv']).values.output).toBe('out.csv');
    expect(parseCommand(TOY, ['--output=out.csv']).values.output).toBe('out.csv');
    expect(parseCommand(TOY, ['--json']).values.json).toBe(true);
  });

  it('keeps positionals in order around the flags; negative numbers are positionals, or values', () => {
    expect(parseCommand(TOY, ['a', '--json', '-33.8', 'b', '-.5']).positionals).toEqual(['a', '-33.8', 'b', '-.5']);
    expect(parseCommand(TOY, ['--x', '-5', 'a'])).toEqual({ values: { x: '-5' }, positionals: ['a'] });
    expect(parseCommand(TOY, ['-', '--', '--json'])).toEqual({ values: {}, positionals: ['-', '--json'] });
  });

  it('rejects unknown flags, a missing value and a value on a switch with a UsageError', () => {
    expect(() => parseCommand(TOY, ['--bogus'])).toThrow(new UsageError('unknown option --bogus'));
    expect(() => parseCommand(TOY, ['-q'])).toThrow(new UsageError('unknown option -q'));
    expect(() => parseCommand(TOY, ['--x'])).toThrow(new UsageError('--x needs a value'));
    expect(() => parseCommand(TOY, ['--json=yes'])).toThrow(new UsageError('--json takes no value'));
    expect(() => parseCommand(TOY, ['--constructor'])).toThrow(UsageError);
  });
});

describe('runCommand and helpText', () => {
  it('prints the help on stdout for --help and -h, exit 0', () => {
    for (const flag of ['--help', '-h']) {
      const r = capture((out, err) => runCommand(TOY, [flag], out, err, () => 7));
      expect(r).toEqual({ code: EXIT.ok, out: helpText(TOY), err: '' });
    }
  });

  it('has the one help shape: summary, Usage, Options with -h, notes, Exit status', () => {
    expect(helpText(TOY).split('\n')).toEqual([
      'geolookup toy: a command for the tests.',
      '',
      'Usage:',
      '  geolookup toy [options] FILE',
      '  geolookup toy --x N           with a note',
      '',
      'Options:',
      '  --x N                    a number',
      '  -o, --output FILE        a file',
      '                           over two lines',
      '  --json                   a switch',
      '  -h, --help               this text',
      '',
      'Notes.',
      '',
      'Exit status: 0 done, 2 bad usage.',
    ]);
  });

  it('bad usage: the message and the help on stderr, exit 2', () => {
    const unknown = capture((out, err) => runCommand(TOY, ['--nope'], out, err, () => 0));
    expect(unknown).toEqual({
      code: EXIT.badInput,
      out: '',
      err: `geolookup toy: unknown option --nope\n\n${helpText(TOY)}`,
    });
    const thrown = capture((out, err) =>
      runCommand(TOY, [], out, err, () => {
        throw new UsageError('give a FILE');
      }),
    );
    expect(thrown.code).toBe(EXIT.badInput);
    expect(thrown.err.startsWith('geolookup toy: give a FILE\n\n')).toBe(true);
    expect(capture((out, err) => runCommand(TOY, ['f'], out, err, ({ positionals }) => positionals.length)).code).toBe(
      1,
    );
  });

  it('wholeNumber: digits within the bounds, else a UsageError naming the flag', () => {
    expect(wholeNumber(undefined, '--n', 1, 9)).toBeUndefined();
    expect(wholeNumber('9', '--n', 1, 9)).toBe(9);
    for (const bad of ['0', '10', '-1', '1.5', 'eight', '', ' 3'])
      expect(() => wholeNumber(bad, '--n', 1, 9)).toThrow(`--n must be a whole number from 1 to 9, got "${bad}"`);
  });
});

describe('every command', () => {
  const commands = [
    ['country'],
    ['subdivision'],
    ['in-country'],
    ['in-subdivision'],
    ['serve'],
    ['keys'],
    ['batch'],
    ['export'],
    ['playground'],
  ];
  const shape = new RegExp(
    '^geolookup [\\w-]+: .+\n\nUsage:\n  geolookup .+[\\s\\S]*\n\nOptions:\n[\\s\\S]*' +
      '  -h, --help +this text(\n[\\s\\S]*)?\n\nExit status: 0 .+',
  );

  it('prints its own help in the one shape for --help and -h, exit 0', () => {
    for (const argv of commands) {
      for (const flag of ['--help', '-h']) {
        const r = capture((out, err) => run([...argv, flag], out, err));
        expect(r.code, argv[0]).toBe(0);
        expect(r.out, argv[0]).toMatch(shape);
        expect(r.out.startsWith(`geolookup ${argv[0]}: `), argv[0]).toBe(true);
      }
    }
    const top = capture((out, err) => run(['--help'], out, err));
    expect(top.out).toMatch(/^geolookup: [\s\S]*in-subdivision[\s\S]*geolookup serve[\s\S]*Exit status: /);
  });

  it('rejects an unknown flag with exit 2 and the message on stderr', () => {
    for (const argv of [
      ['country', '1', '2'],
      ['serve', '--keys', 'k.json'],
      ['keys', 'list'],
      ['batch'],
      ['export'],
      ['playground'],
    ]) {
      const r = capture((out, err) => run([...argv, '--bogus'], out, err));
      expect(r.code, argv[0]).toBe(EXIT.badInput);
      expect(r.out, argv[0]).toBe('');
      expect(r.err.startsWith(`geolookup ${argv[0]}: unknown option --bogus\n\n`), r.err).toBe(true);
    }
  });

  it('a missing positional or command is exit 2', () => {
    const r = capture((out, err) => run(['country', '1'], out, err));
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toMatch(/^geolookup country: takes 2 arguments, got 1/);
    expect(capture((out, err) => run(['in-country', '1', '2'], out, err)).code).toBe(EXIT.badInput);
    expect(capture((out, err) => run([], out, err)).code).toBe(EXIT.badInput);
    expect(capture((out, err) => run(['frobnicate'], out, err)).err).toMatch(/unknown command "frobnicate"/);
    expect(capture((out, err) => run(['keys'], out, err)).err).toMatch(/give a subcommand/);
  });

  it('checks flag values before any work: exit 2 with the message', () => {
    const cases: [string[], RegExp][] = [
      [['serve', '--keys', 'k.json', '--port', 'eighty'], /--port must be a whole number from 0 to 65535/],
      [['serve'], /give --keys FILE/],
      [
        ['serve', '--keys', 'k.json', '--trust-proxy', 'notanip'],
        /--trust-proxy: "notanip" is not an IP address or CIDR range/,
      ],
      [['serve', '--keys', 'k.json', '--trust-proxy', '10.0.0.1, 10.0.0.0/33'], /--trust-proxy: "10.0.0.0\/33" is not/],
      [['serve', '--keys', 'k.json', '--trust-proxy', 'fd00::/8,::1/200'], /--trust-proxy: "::1\/200" is not/],
      [['batch', '--workers', '0'], /--workers must be a whole number from 1 to 256, got "0"/],
      [['batch', '--format', 'xml'], /--format must be csv or ndjson, got "xml"/],
      [['batch', '--fields', 'city'], /--fields takes country, subdivision or both/],
      [['batch', 'a.csv', 'b.csv'], /takes one input file, got 2/],
      [['export', '--layer', 'planet', '--format', 'geojson'], /--layer must be one of country, subdivision/],
      [['export', '--layer', 'country', '--format', 'kml'], /--format must be one of geojson, geojsonseq, csv-wkt/],
      [['export', '--layer', 'country', '--format', 'geojson', '-o', ''], /-o needs a file name/],
      [['playground', '--port', '70000'], /--port must be a whole number from 0 to 65535, got "70000"/],
      [['playground', 'world'], /unexpected argument "world"/],
    ];
    for (const [argv, message] of cases) {
      const r = capture((out, err) => run(argv, out, err));
      expect(r.code, argv.join(' ')).toBe(EXIT.badInput);
      expect(r.err, argv.join(' ')).toMatch(message);
    }
  });
});
