// datasetInfo() says how fresh each source is: every source of the shipped datasets carries the
// date its data was current, the same in the data report, and Debian iso-codes' is the release its
// parent links were frozen from. A data pack the build did not find has no date, only "not found".
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readParentLinks } from '../../build-data/policy/parent-links.js';
import { createGeoLookup, datasetInfo } from '../../src/index.js';

const DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;

describe('source dates', () => {
  it.each([
    ['world', datasetInfo()],
    ['world-lite', createGeoLookup('lite').meta],
  ])('every source of %s has a date, shown in its report', (name, meta) => {
    const report = readFileSync(`dist-data/${name}.REPORT.md`, 'utf8');
    for (const s of meta.sources) {
      if (s.version === 'not found') {
        expect(s.date, s.name).toBeUndefined();
        expect(report).toContain(`| ${s.name} | not found | unknown |`);
        continue;
      }
      expect(s.date, s.name).toMatch(DATE);
      expect(report).toContain(`| ${s.name} | ${s.version} | ${s.date} |`);
    }
    const isoCodes = meta.sources.find((s) => s.name === 'Debian iso-codes')!;
    expect(isoCodes.date).toBe(readParentLinks().isoCodesDate);
    // The OpenStreetMap pack's date is its export's, as its version says.
    for (const s of meta.sources.filter((x) => x.sha256)) expect(s.version.startsWith(s.date!), s.name).toBe(true);
  });
});
