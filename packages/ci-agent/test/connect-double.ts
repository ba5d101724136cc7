// A control plane double for the agent's tests: a Connect server on loopback speaking gRPC over cleartext
// HTTP/2, serving only the methods a test registers (any other is an unknown path, as on an older control
// plane). `connectDoubles()` closes every double a test started, with its HTTP/2 sessions, after each test.
import { createServer, type Http2Server, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { ConnectRouter } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { afterEach } from 'vitest';

/** Registers the cleanup; the returned function starts a double and answers its port. */
export function connectDoubles(): (routes: (router: ConnectRouter) => void) => Promise<number> {
  const servers: Http2Server[] = [];
  const sessions = new Set<ServerHttp2Session>();
  afterEach(async () => {
    for (const s of sessions) s.destroy();
    for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
  });
  return async (routes) => {
    const server = createServer(connectNodeAdapter({ routes, grpc: true, grpcWeb: false, connect: false }));
    servers.push(server);
    server.on('session', (s) => {
      sessions.add(s);
      s.once('close', () => sessions.delete(s));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    return (server.address() as AddressInfo).port;
  };
}
