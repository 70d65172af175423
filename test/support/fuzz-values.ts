// Hostile and near-valid values for property-based fuzzing of the library's inputs.
// Weighted so that a good share of generated calls is valid (otherwise the answer
// path would hardly be exercised) and the rest is every kind of JavaScript value.
import fc from 'fast-check';

/** Every character JavaScript's \s matches, plus look-alikes that are not whitespace. */
export const WHITESPACE = [
  ' ',
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u2005',
  '\u200a',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
];
const OTHER_ODD = ['\u200b', '\u0000', '\u00ad', '\u0660', '\uff11', '\u2212', '\ud800', '\udfff', 'é', '٫', '،'];

const inRange = (limit: number) => fc.double({ min: -limit, max: limit, noNaN: true });

/** A decimal rendering of a number, in the spellings a URL or a form might carry. */
export const spell = (num: fc.Arbitrary<number>): fc.Arbitrary<string> =>
  fc
    .tuple(
      num,
      fc.integer({ min: 0, max: 17 }),
      fc.constantFrom('plain', 'fixed', 'trailingDot', 'leadingDot', 'zeros'),
    )
    .map(([n, digits, style]) => {
      switch (style) {
        case 'plain':
          return String(n); // may be '1e-7': an exponent, which the rules refuse
        case 'fixed':
          return n.toFixed(digits);
        case 'trailingDot':
          return `${Math.trunc(n)}.`;
        case 'leadingDot':
          return n.toFixed(digits).replace(/^(-?)0\./, '$1.');
        default:
          return n.toFixed(digits).replace(/^(-?)/, '$1000');
      }
    });
const decimalString = spell(inRange(180));

/** A valid-looking decimal string with one defect (or, by chance, none). */
const nearDecimal = fc
  .tuple(
    decimalString,
    fc.integer({ min: 0, max: 9 }),
    fc.constantFrom(
      ...WHITESPACE,
      ...OTHER_ODD,
      '+',
      'e',
      'E',
      'e2',
      ',',
      '_',
      'x',
      '0x',
      '.',
      '-',
      '--',
      'Infinity',
      'NaN',
      '%20',
    ),
    fc.nat(),
  )
  .map(([s, how, extra, at]) => {
    const i = at % (s.length + 1);
    switch (how) {
      case 0:
        return extra + s;
      case 1:
        return s + extra;
      case 2:
        return s.slice(0, i) + extra + s.slice(i);
      case 3:
        return s.slice(0, i) + s.slice(i + 1);
      default:
        return s;
    }
  });

export const SPECIAL_STRINGS = [
  '',
  '-0',
  '0',
  '-',
  '.',
  '-.',
  '.5',
  '5.',
  '-.5',
  '-5.',
  '1e2',
  '1E2',
  '1e-2',
  '0x10',
  '0b1',
  '0o7',
  '+1',
  '1_000',
  '1,5',
  '48,85',
  '٤٨',
  '４８',
  'Infinity',
  '-Infinity',
  'NaN',
  'null',
  'undefined',
  'true',
  ' 1',
  '1 ',
  '\u20281',
  '1\u00a0',
  '\ufeff1',
  '90',
  '-90',
  '90.0000000001',
  '180',
  '-180',
  '180.000000000000001',
  '9'.repeat(64),
  '9'.repeat(65),
  '9'.repeat(1000),
  '9'.repeat(100_000),
  `${'0'.repeat(63)}1`,
  `${'0'.repeat(64)}1`,
  `0.${'0'.repeat(62)}1`,
  `-${'0'.repeat(63)}`,
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
];

/** Objects and exotic values that try to be treated as numbers or strings, some of them hostile. */
function exotic(): unknown[] {
  const thrower = () => {
    throw new Error('hostile conversion');
  };
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  const trapAll = new Proxy([48.85], {
    get: thrower,
    has: thrower,
    ownKeys: thrower,
    getPrototypeOf: thrower,
    getOwnPropertyDescriptor: thrower,
    apply: thrower,
  });
  return [
    null,
    undefined,
    true,
    false,
    0n,
    48n,
    -1n,
    10n ** 30n,
    Symbol('lat'),
    Symbol.iterator,
    Symbol.for('FRA'),
    NaN,
    Infinity,
    -Infinity,
    -0,
    Number.MIN_VALUE,
    -Number.MIN_VALUE,
    Number.MAX_VALUE,
    Number.EPSILON,
    90 + 1e-13,
    180 + 1e-13,
    -90 - 1e-13,
    { valueOf: () => 48.85 },
    { toString: () => '48.85' },
    { valueOf: thrower, toString: thrower },
    { [Symbol.toPrimitive]: thrower },
    { [Symbol.toPrimitive]: () => 'FRA' },
    new Number(48.85),
    new String('48.85'),
    new String('FRA'),
    Object(1n),
    Object(Symbol('x')),
    [48.85],
    ['48.85'],
    [],
    [[2.35]],
    new Date(0),
    /48/,
    new Map(),
    new Set(),
    new Float64Array([48.85]),
    new ArrayBuffer(8),
    Object.create(null),
    () => 48.85,
    class {},
    revoked,
    trapAll,
    new Proxy({}, { get: thrower }),
    Object.defineProperty({}, 'toString', { get: thrower }),
    JSON.parse('{"__proto__": {"valueOf": 1}}'),
    Promise.resolve(1),
    new Error('x'),
    globalThis,
  ];
}

/** Country and subdivision codes, well-formed and not, in every case. */
export function codes(
  countryCodes: string[],
  alpha2: string[],
  subdivisionCodes: string[],
  aliases: string[],
): fc.Arbitrary<string> {
  const known = fc.constantFrom(...countryCodes, ...subdivisionCodes, ...aliases);
  const cased = fc
    .tuple(known, fc.nat())
    .map(([c, mask]) => [...c].map((ch, i) => ((mask >> i) & 1 ? ch.toLowerCase() : ch)).join(''));
  const alpha2s = fc.tuple(fc.constantFrom(...alpha2), fc.boolean()).map(([c, lower]) => (lower ? c.toLowerCase() : c));
  const shaped = fc.oneof(
    fc.stringMatching(/^[A-Za-z]{3}$/),
    fc.stringMatching(/^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$/),
    fc.stringMatching(/^[A-Za-z0-9_.-]{0,8}$/),
  );
  const padded = fc
    .tuple(known, fc.constantFrom(...WHITESPACE, ...OTHER_ODD), fc.boolean())
    .map(([c, w, front]) => (front ? w + c : c + w));
  const odd = fc.constantFrom(
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'FRA\u0000',
    'ＦＲＡ',
    'ſſſ',
    'ıta',
    'FR_IDF',
    'FR–IDF',
    'FR-',
    '-IDF',
    'FR-IDFX',
    'F',
    'FRAN',
    '',
  );
  return fc.oneof(known, cased, alpha2s, shaped, padded, odd);
}

const EXOTIC = exotic();

/**
 * Stands for one exotic value until the call: fast-check itself probes generated values
 * (a revoked Proxy or a throwing trap would fail inside fast-check, not in our code).
 */
export class Exotic {
  constructor(readonly index: number) {}
  get value(): unknown {
    return EXOTIC[this.index];
  }
  toString(): string {
    return `Exotic#${this.index}`;
  }
}

/** The real argument behind a generated one. */
export const unwrap = (v: unknown): unknown => (v instanceof Exotic ? v.value : v);

/**
 * Any value for any argument position (exotic values come boxed: pass them through `unwrap`), with
 * weights favouring the interesting ones.
 */
export function anyArgument(codeArb: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: inRange(90) },
    { weight: 2, arbitrary: inRange(180) },
    { weight: 2, arbitrary: fc.double() },
    { weight: 4, arbitrary: decimalString },
    { weight: 4, arbitrary: nearDecimal },
    { weight: 4, arbitrary: codeArb },
    { weight: 2, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: EXOTIC.length - 1 }).map((i) => new Exotic(i)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
    {
      weight: 1,
      arbitrary: fc.anything({
        withBigInt: true,
        withBoxedValues: true,
        withDate: true,
        withMap: true,
        withSet: true,
        withNullPrototype: true,
        withObjectString: true,
        withTypedArray: true,
        withSparseArray: true,
        maxDepth: 2,
      }),
    },
  );
}
