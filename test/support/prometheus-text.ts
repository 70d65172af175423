// A strict reader of the Prometheus text exposition format (version 0.0.4), for the metrics
// tests: every line must be a comment, a blank or a sample, or the read fails.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

// Values as Prometheus parses them (Go's ParseFloat: NaN and Inf in any case; prom-client writes "Nan").
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.eE+-]+|[nN][aA][nN]|[+-]?[iI][nN][fF])(?: -?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;
const COMMENT =
  /^# (?:HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*|TYPE [a-zA-Z_:][a-zA-Z0-9_:]* (?:counter|gauge|histogram|summary|untyped))$/;

export function readMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || COMMENT.test(line)) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    if (m[2]) {
      LABEL.lastIndex = 0;
      let read = 0;
      for (let l = LABEL.exec(m[2]); l !== null; l = LABEL.exec(m[2])) {
        labels[l[1]] = l[2];
        read = LABEL.lastIndex;
      }
      if (read !== m[2].length) throw new Error(`bad labels in ${JSON.stringify(line)}`);
    }
    const v = m[3].toLowerCase();
    samples.push({
      name: m[1],
      labels,
      value: v === 'nan' ? Number.NaN : /inf$/.test(v) ? Number(v.replace('inf', 'Infinity')) : Number(v),
    });
  }
  return samples;
}

/** The value of the sample `name` whose labels include `labels`, summed over the rest; 0 when none. */
export function metric(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}
