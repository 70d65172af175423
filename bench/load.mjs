// Run in a fresh plain-node process by bench.ts: import plus the first answer (what a user's
// process pays), and memory after load; for the built package (`lite`: its lite dataset), or with
// `country-coder` for the lightest peer, measured the same way beside it; `timezones` for the built
// @geolookup/timezones and `geo-tz` for its peer.
const peer = process.argv[2] === 'country-coder';
const t0 = performance.now();
if (process.argv[2] === 'timezones') {
  const tz = await import('../packages/timezones/dist/index.js');
  tz.timeZoneFromGps(48.8566, 2.3522);
} else if (process.argv[2] === 'geo-tz') {
  const { createRequire } = await import('node:module');
  createRequire(import.meta.url)('geo-tz/all').find(48.8566, 2.3522);
} else if (peer) {
  const cc = await import('@rapideditor/country-coder');
  cc.iso1A3Code([2.3522, 48.8566]);
} else {
  const geo = await import('../dist/index.js');
  (process.argv[2] === 'lite' ? geo.createGeoLookup('lite') : geo).countryFromGps(48.8566, 2.3522);
}
const ms = performance.now() - t0;
const m = process.memoryUsage();
console.log(JSON.stringify({ firstAnswerMs: ms, rssMB: m.rss / 1e6, heapMB: m.heapUsed / 1e6 }));
