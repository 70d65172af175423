// The package's descriptor (geolookup/extend's Extension): what the CLI, batch, server and client
// offer for it. It loads nothing; open() requires the Node entry, whose dataset loads on first use.

import type { Extension } from 'geolookup/extend';

/** What open() uses of the Node entry (src/index.ts). */
interface Entry {
  timeZoneFromGps(latitude: number | string, longitude: number | string): string;
  timeZoneDatasetInfo(): unknown;
  preloadTimeZones(): unknown;
}

const extension: Extension = {
  name: '@geolookup/timezones',
  operations: [
    {
      id: 'timeZoneFromGps',
      command: 'timezone',
      path: '/geo/timezone/fromGps/{latitude},{longitude}',
      code: null,
      answer: 'text',
      summary: 'IANA time zone at a point (extension: @geolookup/timezones)',
      describe: 'IANA time zone, e.g. Europe/Paris',
      schema: {
        type: 'string',
        // Area/Location (any depth), Etc/GMT±N, UTC.
        pattern: '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$',
        description: 'An IANA time-zone name, e.g. Europe/Paris; Etc/GMT±N at sea.',
        examples: ['Europe/Paris'],
      },
    },
  ],
  // Its own dataset answers, whatever the core's: the same target over every dataset.
  open({ entry }) {
    const tz = entry() as unknown as Entry;
    return { target: tz, info: () => tz.timeZoneDatasetInfo() };
  },
  batch: {
    options: [{ flag: 'timezone', help: 'also append timezone: the IANA time zone of each row' }],
    columns: (values) => (values.timezone === true ? ['timezone'] : []),
    rows(opened) {
      const tz = opened.target as Entry;
      tz.preloadTimeZones(); // a DataError here, before the first row
      // One array for every row (BatchColumns.rows allows it): no allocation per row.
      const row = [''];
      return (latitude, longitude) => {
        row[0] = tz.timeZoneFromGps(latitude, longitude);
        return row;
      };
    },
  },
};

export default extension;
