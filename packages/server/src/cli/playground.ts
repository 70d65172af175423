// `geolookup playground`: the lookup service and a map of the dataset's answers on a page at
// http://127.0.0.1:PORT/, until SIGINT / SIGTERM.

import { isAbsolute, relative } from 'node:path';
import { HOST, startPlayground } from '../playground/server.js';
import { OVERVIEW_MAX_ZOOM } from '../tiles/tiler.js';
import { defineCommand, EXIT, type Print, runCommand, usageError, wholeNumber, DATA_OPTION } from 'geolookup/extend';

const PLAYGROUND = defineCommand({
  name: 'geolookup playground',
  summary: 'a local page that shows the world as the lookup sees it: click a point, see its answer.',
  usage: ['geolookup playground [--port N] [--data FILE]'],
  options: {
    port: { type: 'string', value: 'N', help: 'TCP port on 127.0.0.1 (default 8090; 0 picks a free one)' },
    data: DATA_OPTION,
  },
  notes:
    'The page asks the HTTP API of `geolookup serve` (without keys, on 127.0.0.1 only) and draws\n' +
    'vector tiles of the dataset that answers; the world overview (zooms 0-7, countries only) comes\n' +
    'from FILE-lite.geolookup beside the dataset when it exists, else from the dataset.\n' +
    'See docs/PLAYGROUND.md in the @geolookup/server package.',
  exit: '0 stopped by a signal, 2 bad options, 1 dataset unreadable or the port taken.',
});

export function runPlayground(argv: string[], out: Print, err: Print): number {
  return runCommand(PLAYGROUND, argv, out, err, ({ values, positionals }) => {
    if (positionals.length) return usageError(PLAYGROUND, `unexpected argument "${positionals[0]}"`, err);
    const port = wholeNumber(values.port, '--port', 0, 65535) ?? 8090;
    startPlayground({ port, data: values.data, log: err }).then(
      (playground) => {
        const shown = (path: string) => {
          const near = relative(process.cwd(), path);
          return near.startsWith('..') || isAbsolute(near) ? path : near;
        };
        out(
          `geolookup playground: ${playground.url} (tiles from ${shown(playground.data)}, ` +
            `zooms 0-${OVERVIEW_MAX_ZOOM} from ${shown(playground.overview)}${playground.prebuilt ? ', prebuilt' : ''})`,
        );
        const stop = () => void playground.close().then(() => process.exit(process.exitCode ?? EXIT.ok));
        process.once('SIGTERM', stop);
        process.once('SIGINT', stop);
      },
      (e: NodeJS.ErrnoException) => {
        const why = e.code === 'EADDRINUSE' ? `cannot listen on ${HOST}:${port}: ${e.code}` : e.message;
        err(`geolookup playground: ${why}`);
        process.exitCode = EXIT.error;
      },
    );
    return EXIT.ok;
  });
}
