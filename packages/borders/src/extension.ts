// The package's descriptor (geolookup/extend's Extension): its four operations, their parameters
// (defined here once: borders.ts validates with them, as every front end does), and the batch's
// border columns. It loads nothing; open() requires the Node entry.

import type { BatchValue, Extension, JsonSchema, NumberParam, Operation, Param } from 'geolookup/extend';

/** The radius a caller may ask for: 500 km, past which the local frame's ranking is not checked. */
export const MAX_RADIUS_KM = 500;
/** maxKm when none is given. */
export const DEFAULT_MAX_KM = 50;

export const MAX_KM: NumberParam = {
  name: 'maxKm',
  kind: 'number',
  required: false,
  min: 0,
  max: MAX_RADIUS_KM,
  default: DEFAULT_MAX_KM,
  noun: 'the search distance',
  unit: 'km',
  placeholder: 'KM',
  summary: `how far to search, in km (default ${DEFAULT_MAX_KM}, at most ${MAX_RADIUS_KM})`,
};
export const LAYER: Param = {
  name: 'layer',
  kind: 'choice',
  values: ['country', 'subdivision'],
  required: false,
  default: 'country',
  placeholder: 'L',
  summary: "'country' (default): where the country changes; 'subdivision': where the subdivision does",
};
export const RADIUS_M: NumberParam = {
  name: 'radiusM',
  kind: 'number',
  required: true,
  min: 0,
  max: MAX_RADIUS_KM * 1000,
  noun: 'the radius',
  unit: 'metres',
  placeholder: 'M',
  summary: `the radius, in metres (at most ${MAX_RADIUS_KM * 1000})`,
};

const ALPHA3 = { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 3166-1 alpha-3, e.g. FRA.' };
const ISO_3166_2 = { type: 'string', pattern: '^[A-Z]{2}-[A-Z0-9]{1,3}$', description: 'ISO 3166-2, e.g. FR-75C.' };

/** A region and its distance: measured on the ISO world dataset, whatever codes the server's uses. */
const region = (code: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['code', 'distanceM'],
  additionalProperties: false,
  properties: {
    code,
    distanceM: {
      type: 'number',
      minimum: 0,
      description: '0 when the point is in it, else metres to its nearest edge (WGS 84).',
    },
  },
});
const regions = (code: JsonSchema, what: string): JsonSchema => ({
  type: 'array',
  items: region(code),
  description: `Every ${what} whose area lies within the circle, nearest first (ties by code).`,
});

interface NearestAnswer {
  code: string;
  distanceM: number;
}
interface RegionsAnswer {
  countries: NearestAnswer[];
  subdivisions: NearestAnswer[];
}
const NO_NEAREST = 'No region at the point nor within maxKm of it (a cacheable answer), or a path that is no route.';
const nearestText = (a: unknown) => `${(a as NearestAnswer).code} ${(a as NearestAnswer).distanceM}`;

const OPERATIONS: Operation[] = [
  {
    id: 'distanceToBorder',
    command: 'distance',
    path: '/geo/border/distance/fromGps/{latitude},{longitude}',
    code: null,
    answer: 'json',
    summary: 'Metres to the nearest change of answer, or null past maxKm (extension: @geolookup/borders)',
    describe: 'metres to the nearest change of answer, or null',
    schema: {
      type: ['number', 'null'],
      minimum: 0,
      description: 'Metres to the nearest change of answer; null: none within maxKm.',
      examples: [17.8, null],
    },
    params: [MAX_KM, LAYER],
  },
  {
    id: 'nearestCountry',
    command: 'nearest',
    path: '/geo/country/nearest/fromGps/{latitude},{longitude}',
    code: null,
    answer: 'json',
    summary: 'Country at a point, else the nearest within maxKm (extension: @geolookup/borders)',
    describe: 'the region at the point, else the nearest: "ESP 1234.5"',
    schema: region(ALPHA3),
    notFound: NO_NEAREST,
    text: nearestText,
    params: [MAX_KM],
  },
  {
    id: 'nearestSubdivision',
    command: 'nearest-subdivision',
    path: '/geo/subdivision/nearest/fromGps/{latitude},{longitude}',
    code: null,
    answer: 'json',
    summary: 'Subdivision at a point, else the nearest within maxKm (extension: @geolookup/borders)',
    describe: 'the subdivision at the point, else the nearest: "ES-CE 1234.5"',
    schema: region(ISO_3166_2),
    notFound: NO_NEAREST,
    text: nearestText,
    params: [MAX_KM],
  },
  {
    id: 'regionsWithin',
    command: 'within',
    path: '/geo/regions/within/fromGps/{latitude},{longitude}',
    code: null,
    answer: 'json',
    summary: 'Every country and subdivision within radiusM of a point (extension: @geolookup/borders)',
    describe: 'every region within the radius, one "country|subdivision CODE METRES" a line',
    schema: {
      type: 'object',
      required: ['countries', 'subdivisions'],
      additionalProperties: false,
      properties: { countries: regions(ALPHA3, 'country'), subdivisions: regions(ISO_3166_2, 'subdivision') },
    },
    text: (a) => {
      const r = a as RegionsAnswer;
      return [
        ...r.countries.map((x) => `country ${x.code} ${x.distanceM}`),
        ...r.subdivisions.map((x) => `subdivision ${x.code} ${x.distanceM}`),
      ].join('\n');
    },
    params: [RADIUS_M],
  },
];

/** What open() and the batch use of the Node entry (src/index.ts) and of a BorderLookup. */
interface Borders {
  distanceToBorder(lat: number, lon: number, o: { maxKm: number; layer: string }): number | null;
  nearestCountry(lat: number, lon: number, o: { maxKm: number }): NearestAnswer;
  nearestSubdivision(lat: number, lon: number, o: { maxKm: number }): NearestAnswer;
  regionsWithin(lat: number, lon: number, radiusM: number): RegionsAnswer;
}
interface Entry extends Borders {
  createBorderLookup(o: { geo: unknown; data: string }): Borders & { meta: unknown };
  bordersDataPath(): string;
  bordersDatasetInfo(): unknown;
  preloadBorders(): Borders & { meta: unknown };
}

const DECIMAL = /^\d+(\.\d+)?$/;

/** The batch's border flags read: their problem as text, or the numbers. */
function batchPlan(values: Readonly<Record<string, string | boolean | undefined>>) {
  const within = values.within;
  const maxKm = values['max-km'];
  const asked = values.distance === true || values.nearest === true || within !== undefined;
  if (!asked) return maxKm === undefined ? null : '--max-km goes with --distance or --nearest';
  for (const [flag, v] of [
    ['--within', within],
    ['--max-km', maxKm],
  ] as const)
    if (typeof v === 'string' && !DECIMAL.test(v)) return `${flag} takes a number, got "${v}"`;
  const km = maxKm === undefined ? DEFAULT_MAX_KM : Number(maxKm);
  if (km > MAX_RADIUS_KM) return `--max-km must be a number from 0 to ${MAX_RADIUS_KM}, got "${maxKm}"`;
  const withinM = typeof within === 'string' ? Number(within) : null;
  if (withinM !== null && withinM > MAX_RADIUS_KM * 1000)
    return `--within must be a number from 0 to ${MAX_RADIUS_KM * 1000}, got "${within}"`;
  return { distance: values.distance === true, nearest: values.nearest === true, withinM, maxKm: km };
}

const metres = (m: number) => Math.round(m * 100) / 100;

const extension: Extension = {
  name: '@geolookup/borders',
  operations: OPERATIONS,
  // Its lines are drawn from the world dataset: over another one it pairs them with that dataset,
  // and refuses (DataError) one they were not drawn from (the lite dataset).
  open({ geo, embedded, entry }) {
    const pkg = entry() as unknown as Entry;
    if (embedded) return { target: pkg, info: () => pkg.bordersDatasetInfo() };
    const lookup = pkg.createBorderLookup({ geo, data: pkg.bordersDataPath() });
    return { target: lookup, info: () => lookup.meta };
  },
  batch: {
    options: [
      {
        flag: 'distance',
        help: 'also append distance_m: metres to the nearest change of any answer asked for\n(empty past --max-km)',
      },
      {
        flag: 'nearest',
        help: "also append nearest, nearest_m: the first field's region at the point, else the\nnearest within --max-km (empty when none)",
      },
      {
        flag: 'within',
        value: 'M',
        help: 'also append within: every region of the fields within M metres, nearest first,\nspace-separated (NDJSON: an array)',
      },
      { flag: 'max-km', value: 'KM', help: 'how far --distance and --nearest search (default 50, at most 500)' },
    ],
    columns(values) {
      const plan = batchPlan(values);
      if (plan === null) return [];
      if (typeof plan === 'string') return plan;
      return [
        ...(plan.distance ? ['distance_m'] : []),
        ...(plan.nearest ? ['nearest', 'nearest_m'] : []),
        ...(plan.withinM !== null ? ['within'] : []),
      ];
    },
    rows(opened, values, fields) {
      const plan = batchPlan(values);
      if (plan === null || typeof plan === 'string') return () => [];
      const lookup = opened.target as Borders;
      const { maxKm, withinM } = plan;
      return (lat, lon) => {
        const out: BatchValue[] = [];
        if (plan.distance) {
          let least: number | null = null;
          for (const layer of fields) {
            const m = lookup.distanceToBorder(lat, lon, { maxKm, layer });
            if (m !== null && (least === null || m < least)) least = m;
          }
          out.push(least === null ? null : metres(least));
        }
        if (plan.nearest) {
          const near = nearest(lookup, fields[0], lat, lon, maxKm);
          out.push(near?.code ?? null, near ? metres(near.distanceM) : null);
        }
        if (withinM !== null) {
          const r = lookup.regionsWithin(lat, lon, withinM);
          out.push(
            [
              ...(fields.includes('country') ? r.countries : []),
              ...(fields.includes('subdivision') ? r.subdivisions : []),
            ].map((x) => x.code),
          );
        }
        return out;
      };
    },
  },
};

/** The region at the point or the nearest within maxKm; null when there is none (its NotFoundError, status 404). */
function nearest(lookup: Borders, layer: string, lat: number, lon: number, maxKm: number): NearestAnswer | null {
  try {
    return layer === 'country'
      ? lookup.nearestCountry(lat, lon, { maxKm })
      : lookup.nearestSubdivision(lat, lon, { maxKm });
  } catch (e) {
    if ((e as { status?: unknown })?.status === 404) return null;
    throw e;
  }
}

export default extension;
