// What an extension's data build reads of a built dataset and writes its own file with
// (packages/borders/build-data/ draws border lines from the world dataset's cells): the cell
// readers and dissolver of `geolookup export`, the container and its sections. Build-time only.

export type { Dataset } from '../format/dataset.js';
export { GRID_COLS, GRID_ROWS } from '../format/layout.js';
export { KIND_BORDERS, wrapPayload } from '../format/container.js';
export { bytesOf, float32Above, float32Below, packSections } from '../format/sections.js';
export { cancelOnLine, dissolve, EdgeSet } from '../export/geometry.js';
export { cellTrapezoids, type LayerReader, layerReader } from '../export/rows.js';
export { loadDatasetFile } from '../export/write.js';
export { hashFolders } from '../node/hash-folders.js';
