// Generators of HTTP requests for the server fuzz (packages/server/test/fuzz-server.test.ts): paths
// with percent-encodings and junk, query strings, methods, key placements, extra headers, bodies.
import fc from 'fast-check';

const PIECES = [
  'a',
  'Z',
  '0',
  '9',
  '48.8566',
  '2.3522',
  '-',
  '.',
  ',',
  '_',
  '~',
  '+',
  '..',
  ';',
  '=',
  '&',
  '@',
  ':',
  '!',
  '$',
  "'",
  '(',
  ')',
  '*',
  '%',
  '%0',
  '%2',
  '%zz',
  '%G0',
  '%00',
  '%2F',
  '%2f',
  '%2C',
  '%2c',
  '%20',
  '%09',
  '%0A',
  '%0D%0A',
  '%25',
  '%2E',
  '%2e%2e',
  '%3F',
  '%23',
  '%26',
  '%3D',
  '%C0%AF',
  '%C0%AE',
  '%E0%80%AF',
  '%F0%80%80%AF',
  '%C0%80',
  '%ED%A0%80',
  '%FF',
  '%FE%FF',
  '%E2%80%A8',
  '%C2%A0',
  '%EF%BC%94',
  'é',
  '☃',
  '\u2028',
];
const junk = fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }).map((l) => l.join(''));
const decimal = fc.oneof(
  fc.double({ min: -200, max: 200, noNaN: true }).map((n) => n.toFixed(4)),
  fc.double({ min: -90, max: 90, noNaN: true }).map(String),
  fc.constantFrom(
    '48.8566',
    '2.3522',
    '-0',
    '.5',
    '5.',
    '1e2',
    '0x10',
    '',
    '+1',
    '9'.repeat(70),
    `${'0'.repeat(63)}1`,
    '90',
    '-180',
    '180.0000001',
  ),
);
const coord = fc.oneof(
  { weight: 8, arbitrary: decimal },
  { weight: 1, arbitrary: junk },
  { weight: 1, arbitrary: fc.tuple(decimal, junk).map(([d, j]) => d + j) },
  { weight: 1, arbitrary: fc.tuple(junk, decimal).map(([j, d]) => j + d) },
);
const code = fc.oneof(
  fc.constantFrom(
    'FRA',
    'fra',
    'DEU',
    'ZZZ',
    'FR',
    'ATA',
    'XKX',
    'FR-IDF',
    'fr-idf',
    'US-PR',
    'FR-75C',
    'FR-ZZZ',
    'US-CA',
    '__proto__',
    'constructor',
    'toString',
    '',
  ),
  junk,
);
const param = fc
  .tuple(
    fc.constantFrom(
      'latitude',
      'longitude',
      'latitude',
      'longitude',
      'lat',
      'LATITUDE',
      'lati%74ude',
      'latitude%00',
      '',
      'x',
    ),
    fc.option(coord, { nil: undefined }),
  )
  .map(([n, v]) => (v === undefined ? n : `${n}=${v}`));
const query = fc.oneof(
  { weight: 4, arbitrary: fc.array(param, { maxLength: 5 }).map((l) => `?${l.join('&')}`) },
  { weight: 1, arbitrary: fc.constant('') },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('latitude', 'pad', 'longitude'), fc.integer({ min: 100, max: 5000 }))
      .map(([n, k]) => `?${n}=${'9'.repeat(k)}&longitude=1`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '?',
      '?&&',
      '?=',
      '?latitude',
      '?latitude=&longitude=',
      '?latitude=1&latitude=1&longitude=1',
      '?latitude=1#frag&longitude=2',
    ),
  },
);
/** Request targets: lookups with odd coordinates, membership routes with odd codes and queries, others. */
export const path = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.constantFrom('/geo/country/fromGps/', '/geo/subdivision/fromGps/'),
        coord,
        fc.constantFrom(',', ',', '%2C', ',,', ''),
        coord,
      )
      .map((p) => p.join('')),
  },
  { weight: 3, arbitrary: fc.tuple(code, query).map(([c, q]) => `/geo/country/${c}/isInCountry${q}`) },
  { weight: 3, arbitrary: fc.tuple(code, query).map(([c, q]) => `/geo/subdivision/${c}/isInSubdivision${q}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '/healthz',
      '/healthz/',
      '/HEALTHZ',
      '/healthz?x=1',
      '/',
      '*',
      '',
      '/geo',
      '/geo/',
      '//geo/country/fromGps/1,2',
      '/geo/../geo/country/fromGps/48.85,2.35',
      '/geo/./country/fromGps/48.85,2.35',
      '/geo/country/fromGps/../fromGps/48.85,2.35',
      '/geo/country/fromGps/48.85%2C2.35',
      '/geo%2Fcountry%2FfromGps%2F48.85,2.35',
      '/geo/country/fromGps/48.85,2.35/',
      '/%2e%2e/geo/country/fromGps/1,2',
      'http://evil.example/geo/country/fromGps/48.85,2.35',
    ),
  },
  { weight: 2, arbitrary: fc.array(junk, { maxLength: 5 }).map((l) => `/${l.join('/')}`) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 2000, max: 3000 }).map((n) => `/geo/country/fromGps/1,2?pad=${'x'.repeat(n)}`),
  },
);
/** Mostly GET, some HEAD, and methods the server must refuse. */
export const method = fc.oneof(
  { weight: 8, arbitrary: fc.constant('GET') },
  { weight: 2, arbitrary: fc.constant('HEAD') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'PROPFIND', 'M-SEARCH', 'PURGE'),
  },
);
/** How the API key is sent: the valid one, none, in another case, twice, revoked, bogus, elsewhere, empty. */
export type Key = 'valid' | 'none' | 'lower' | 'upper' | 'twice' | 'revoked' | 'bogus' | 'authorization' | 'empty';
export const key = fc.oneof(
  { weight: 8, arbitrary: fc.constant<Key>('valid') },
  {
    weight: 3,
    arbitrary: fc.constantFrom<Key>('none', 'lower', 'upper', 'twice', 'revoked', 'bogus', 'authorization', 'empty'),
  },
);
const extraHeader = fc.constantFrom<[string, string]>(
  ['If-None-Match', '*'],
  ['If-None-Match', '"nope"'],
  ['If-None-Match', 'W/"x", "y"'],
  ['X-Forwarded-For', '203.0.113.7'],
  ['X-Forwarded-For', 'garbage, ,'],
  ['Accept', 'application/json'],
  ['Accept-Encoding', 'gzip, br'],
  ['Cookie', `a=${'b'.repeat(2000)}`],
  ['X-Pad', 'y'.repeat(7000)],
  ['X-Pad', 'y'.repeat(9000)],
  ['Expect', '100-continue'],
  ['Expect', 'something-else'],
  ['Content-Length', '0'],
  ['Range', 'bytes=0-1'],
  ['Origin', 'https://evil.example'],
);
/** Up to three extra headers: conditionals, forwarding, oversized values, Expect and others. */
export const headers = fc.array(extraHeader, { maxLength: 3 });
/** Mostly no body; sometimes a small or a large one. */
export const body = fc.option(fc.constantFrom('x', 'hello', '{"a":1}', 'z'.repeat(10_000)), {
  nil: undefined,
  freq: 8,
});
