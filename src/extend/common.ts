// What geolookup/extend exports on every platform (src/extend.ts adds the Node parts).

export {
  type Answer,
  type AnswerKind,
  callError,
  callOperation,
  type ChoiceParam,
  CONTRACT_OPERATIONS,
  flagOf,
  isContract,
  type JsonSchema,
  type NumberParam,
  type Operation,
  type OperationTarget,
  type Param,
  paramError,
  paramValue,
} from './operations.js';
export {
  checkExtension,
  type Extension,
  type ExtensionContext,
  type OpenedExtension,
  operationsOf,
} from './extension.js';
export { matchesSchema } from './schema.js';
export type { BatchColumns, BatchOption, BatchValue, BatchValues } from './extension.js';
// The error classes again, so a product importing only this entry has them (one identity: API.md).
export {
  AuthenticationError,
  DataError,
  ERROR_KIND,
  type FieldErrors,
  GeoLookupError,
  NotFoundError,
  type Problem,
  PROBLEM_TYPES,
  RateLimitError,
  statusTitle,
  ValidationError,
} from '../lookup/errors.js';
export type { GeoLookup } from '../lookup/engine.js';
export { inRange, MAX_COORDINATE_CHARS, parsePair, quickCoordinate } from '../lookup/validate.js';
export { type BinaryInput, HEADER_BYTES, sealOf, unwrapPayload as readContainer } from '../format/container.js';
export { type AreaIn, geometryIn } from '../export/geometry-in.js';
