// Loaded with --import (NODE_OPTIONS, set by test/support/openapi-conformance.ts) in the node
// processes a server test starts: records what their geolookup servers answer, one JSON line per
// connection in $GEOLOOKUP_RESPONSE_TAP_DIR/<pid>.jsonl, for the test process to check.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { tapConnections } from './response-tap.mjs';

const dir = process.env.GEOLOOKUP_RESPONSE_TAP_DIR;
if (dir) {
  const file = join(dir, `${process.pid}.jsonl`);
  // Each server's document goes with its first connection; later lines name the server by number.
  const ids = new WeakMap();
  let next = 0;
  tapConnections(({ server, out, requests }) => {
    if (out === '') return;
    let id = ids.get(server);
    const doc = id === undefined ? server.openapi : undefined;
    if (id === undefined) ids.set(server, (id = next++));
    const line = { server: id, doc, out, requests };
    try {
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    } catch {
      // the test process removed the folder: it has finished checking
    }
  });
}
