// Which dataset draws the world overview (zooms 0-7, tiles/tiler.ts): the exact geometry of the
// full world dataset takes about a minute for all countries, so a simplified copy with the same
// codes is preferred when it was built; at those zooms its error is about a pixel at most.

import { existsSync } from 'node:fs';

/** `<name>-lite.geolookup` beside the answering dataset when it exists (world-lite for world), else that dataset. */
export function mapDataPath(answering: string): string {
  const lite = `${answering.replace(/\.geolookup$/, '')}-lite.geolookup`;
  return existsSync(lite) ? lite : answering;
}
