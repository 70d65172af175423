// Run in a fresh process by bench.ts: import + first answer, and memory after load.
const t0 = performance.now();
const geo = await import('../src/index.js');
geo.countryFromGps(48.8566, 2.3522);
const ms = performance.now() - t0;
const m = process.memoryUsage();
console.log(JSON.stringify({ firstAnswerMs: ms, rssMB: m.rss / 1e6, heapMB: m.heapUsed / 1e6, externalMB: (m.external + m.arrayBuffers) / 1e6 }));
