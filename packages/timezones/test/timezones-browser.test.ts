// @geolookup/timezones' browser entry against its Node entry. A file of its own: a second lookup
// over the dataset in one process makes V8 compile the shared lookup code for both, and the
// allocation tests in timezones.test.ts then see boxed doubles (docs/PERFORMANCE.md, "One dataset per process").
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as tz from '../src/index.js';
import { cityPoints, joinPoints, spherePoints } from '../../../test/support/sample-points.js';

describe('@geolookup/timezones/browser', () => {
  it('the browser entry answers from the dataset’s bytes as the Node entry does', async () => {
    const browser = await import('../src/browser.js');
    const bytes = readFileSync(tz.timeZoneDataPath());
    const lookup = browser.createTimeZoneLookup({ data: new Uint8Array(bytes) });
    const pts = joinPoints([spherePoints(2_000, 55), cityPoints(2_000, 56)]);
    for (let i = 0; i < pts.lat.length; i++)
      expect(lookup.timeZonesFromGps(pts.lat[i], pts.lon[i])).toEqual(tz.timeZonesFromGps(pts.lat[i], pts.lon[i]));
  });
});
