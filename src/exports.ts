// What the Node and browser entries both export: errors, the input rules, the operation table and
// types. One list, so the two entries cannot drift apart.

export * from './lookup/errors.js';
export { coordinateError, quickCoordinate } from './lookup/validate.js';
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
export { type BinaryInput, unwrapPayload as readContainer } from './format/container.js';
export { NOT_FOUND, INVALID_COORDINATE, type BatchLookup, type IndexArray } from './lookup/typed-arrays.js';
export type { MultiPolygon } from './export/geometry-of.js';
export type { DissolvedRegion } from './export/dissolve.js';
export {
  OPERATIONS,
  callOperation,
  isContract,
  paramValue,
  type Answer,
  type NearestAnswer,
  type Operation,
  type OperationTarget,
  type Param,
  type RegionsAnswer,
} from './operations.js';
