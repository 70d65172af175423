// What the handler needs from a request's headers, read in one pass over rawHeaders (node's
// parsed `req.headers` joins repeated X-API-Key lines and keeps one of repeated Host lines; both must
// be refused, not joined).

/** The headers of one request that the handler reads, made by readHeaders. */
export class RequestHeaders {
  keyCount = 0;
  key = '';
  authorization = false;
  ifNoneMatch = '';
  body = false;
  origin = '';
  hostCount = 0;
}

export function readHeaders(raw: string[]): RequestHeaders {
  const seen = new RequestHeaders();
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    switch (name.length) {
      case 4:
        if (name.toLowerCase() === 'host') seen.hostCount++;
        break;
      case 6:
        if (name.toLowerCase() === 'origin') seen.origin = raw[i + 1];
        break;
      case 9:
        if (name.toLowerCase() === 'x-api-key') {
          seen.keyCount++;
          seen.key = raw[i + 1];
        }
        break;
      case 13:
        if (name.toLowerCase() === 'authorization') seen.authorization = true;
        else if (name.toLowerCase() === 'if-none-match')
          seen.ifNoneMatch = seen.ifNoneMatch ? `${seen.ifNoneMatch}, ${raw[i + 1]}` : raw[i + 1];
        break;
      case 14:
        if (name.toLowerCase() === 'content-length' && !/^0+$/.test(raw[i + 1])) seen.body = true;
        break;
      case 17:
        if (name.toLowerCase() === 'transfer-encoding') seen.body = true;
        break;
    }
  }
  return seen;
}
