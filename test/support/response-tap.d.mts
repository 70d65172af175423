import type { Server } from 'node:http';

export interface TappedConnection {
  server: Server & { openapi: Record<string, unknown> };
  /** Everything the server wrote on the connection, as latin1. */
  out: string;
  /** The requests it answered through node:http, in order. */
  requests: { method: string; url: string }[];
}

export function tapConnections(done: (c: TappedConnection) => void): { stop(): void };
