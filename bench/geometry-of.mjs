// Run in a plain-node process by bench.ts: geometryOf on the built package, as a user calls it,
// for Luxembourg and the largest countries; the best of five calls each, after a warm-up.
// Prints one JSON line: { code: { ms, cpuMs, vertices } }; cpuMs (this process's user CPU time)
// shows the cost on a machine shared with other work, where the wall time also holds waiting.
const geo = await import('../dist/index.js');
geo.preload();
// The records, read once for every later call, and the JIT warmed on other countries.
for (const code of ['VAT', 'BEL', 'NLD', 'BEL', 'NLD']) geo.geometryOf(code);
const codes = process.argv.slice(2);
const out = {};
for (const code of codes) {
  let best = Infinity;
  let cpu = Infinity;
  let vertices = 0;
  for (let i = 0; i < 5; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    const g = geo.geometryOf(code);
    best = Math.min(best, performance.now() - t);
    cpu = Math.min(cpu, process.cpuUsage(c).user / 1000);
    vertices = g.coordinates.reduce((s, p) => s + p.reduce((a, r) => a + r.length, 0), 0);
  }
  out[code] = { ms: best, cpuMs: cpu, vertices };
}
console.log(JSON.stringify(out));
