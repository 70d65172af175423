// The client's methods of the extensions installed in this checkout, for TypeScript: declaration
// merging into @geolookup/client's ExtensionMethods, as docs/CLIENT.md ("Extensions") shows users.
import type * as borders from '../../packages/borders/src/index.js';
import type { ClientOperation } from '../../packages/client/src/client.js';
import type * as timezones from '../../packages/timezones/src/index.js';

declare module '../../packages/client/src/client.js' {
  interface ExtensionMethods {
    timeZoneFromGps: ClientOperation<typeof timezones.timeZoneFromGps>;
    distanceToBorder: ClientOperation<typeof borders.distanceToBorder>;
    nearestCountry: ClientOperation<typeof borders.nearestCountry>;
    nearestSubdivision: ClientOperation<typeof borders.nearestSubdivision>;
    regionsWithin: ClientOperation<typeof borders.regionsWithin>;
  }
}
