// What the Node and browser entries both export: errors, the input rules and types. One list, so
// the two entries cannot drift apart; docs/API.md, "Exports", lists it (test/integration/exports.test.ts).
// What only product and extension authors need is in geolookup/extend (src/extend.ts).

export {
  AuthenticationError,
  DataError,
  type FieldErrors,
  GeoLookupError,
  NotFoundError,
  type Problem,
  PROBLEM_TYPES,
  RateLimitError,
  ValidationError,
} from './lookup/errors.js';
export { coordinateError } from './lookup/validate.js';
export type { GeoLookup } from './lookup/engine.js';
export type { BBox, BoxQueries } from './lookup/boxes.js';
export type {
  CountryInfo,
  SubdivisionInfo,
  DatasetMeta,
  DeFactoArea,
  DeFactoWhere,
  SourceInfo,
} from './format/dataset.js';
export type { BinaryInput } from './format/container.js';
export { NOT_FOUND, INVALID_COORDINATE, type BatchLookup, type IndexArray } from './lookup/typed-arrays.js';
export type { MultiPolygon } from './export/geometry-of.js';
export type { DissolvedRegion } from './export/dissolve.js';
