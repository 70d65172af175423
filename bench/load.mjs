// Run in a fresh plain-node process by bench.ts: import of the built package plus
// the first answer (what a user's process pays), and memory after load.
const t0 = performance.now();
const geo = await import('../dist/index.js');
geo.countryFromGps(48.8566, 2.3522);
const ms = performance.now() - t0;
const m = process.memoryUsage();
console.log(JSON.stringify({ firstAnswerMs: ms, rssMB: m.rss / 1e6, heapMB: m.heapUsed / 1e6 }));
