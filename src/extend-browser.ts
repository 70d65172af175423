// geolookup/extend in browsers: what product and extension authors build on (docs/EXTENDING.md,
// with its stability rule), without Node built-ins. No extension is found here: a browser app
// passes the descriptors it imports.

export * from './extend/common.js';

import type { Extension, OpenedExtension } from './extend/extension.js';

/** Browsers have no installed packages to look through. */
export const findExtensions = (): readonly Extension[] => [];

/** An extension reads its data from disk: in a browser only a remote client answers its operations. */
export function openExtension(extension: Extension): OpenedExtension {
  throw new Error(`${extension.name} needs Node to answer offline; in a browser use a remote client`);
}
