// The two HTTP/2 servers of the direct-path differential tests (grpc-unary.test.ts, grpc-stream.test.ts): one
// that offers each request to the direct path first and hands the rest to Connect, as grpc-server.ts does,
// and one with Connect alone; on loopback, started before the file's tests and closed after them.
import {
  createServer,
  type Http2Server,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type ServerHttp2Session,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

type Handler = (req: Http2ServerRequest, res: Http2ServerResponse) => void;

/** The servers' ports, and how many requests the direct path took so far. */
export interface DifferentialServers {
  direct: number;
  connect: number;
  taken: number;
}

export function differentialServers(
  connect: Handler,
  direct: (req: Http2ServerRequest, res: Http2ServerResponse) => boolean,
): DifferentialServers {
  const state: DifferentialServers = { direct: 0, connect: 0, taken: 0 };
  const servers: Http2Server[] = [];
  const sessions = new Set<ServerHttp2Session>();
  const listen = (withDirect: boolean): Promise<number> => {
    const server = createServer((req, res) => {
      if (withDirect && direct(req, res)) state.taken++;
      else connect(req, res);
    });
    servers.push(server);
    server.on('session', (s) => {
      sessions.add(s);
      s.once('close', () => sessions.delete(s));
    });
    return new Promise((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
    );
  };
  beforeAll(async () => {
    state.direct = await listen(true);
    state.connect = await listen(false);
  });
  afterAll(async () => {
    // Clients keep their HTTP/2 sessions open: end them, or closing waits for them.
    for (const s of sessions) s.destroy();
    for (const s of servers) await new Promise((r) => s.close(r));
  });
  return state;
}
