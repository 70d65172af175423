// Which dataset draws the outlines: geometryOf on the full world dataset takes about a minute
// for all countries, so a simplified copy with the same codes is preferred when it was built.

import { existsSync } from 'node:fs';

/** `<name>-lite.geolookup` beside the answering dataset when it exists (world-lite for world), else that dataset. */
export function mapDataPath(answering: string): string {
  const lite = `${answering.replace(/\.geolookup$/, '')}-lite.geolookup`;
  return existsSync(lite) ? lite : answering;
}
