// The agent protocol endpoint: ConnectRPC speaking gRPC over cleartext HTTP/2 on CI_GRPC_PORT.
import { createServer, type Http2Server, type ServerHttp2Session } from 'node:http2';
import { AGENT_SESSION_HEADER, AgentService, type ServerMessageSchema } from '@app/ci-proto';
import { safeEqual } from '@app/kit';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { Code, ConnectError, type ConnectRouter } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { AsyncQueue } from './async-queue.js';
import type { AgentRegistry } from './registry.js';

export const HEARTBEAT_INTERVAL_MS = 10_000;
/** Three missed heartbeats. */
export const LEASE_MS = 3 * HEARTBEAT_INTERVAL_MS;

export interface AgentServiceDeps {
  registry: AgentRegistry;
  agentToken: string;
}

function bearer(header: string | null): string {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  return m ? m[1].trim() : '';
}

export function agentRoutes(deps: AgentServiceDeps) {
  return (router: ConnectRouter) =>
    router.service(AgentService, {
      async register(req, ctx) {
        if (!safeEqual(bearer(ctx.requestHeader.get('authorization')), deps.agentToken)) {
          throw new ConnectError('invalid agent registration token', Code.Unauthenticated);
        }
        if (!req.name.trim()) throw new ConnectError('agent name is required', Code.InvalidArgument);
        const agent = deps.registry.register({
          name: req.name.trim(),
          tags: req.tags.map((t) => t.trim()).filter(Boolean),
          capacity: req.capacity > 0 ? req.capacity : 1,
          version: req.version,
          hostname: req.hostname,
        });
        return {
          agentId: agent.id,
          sessionId: agent.sessionId,
          heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS,
          leaseMs: LEASE_MS,
        };
      },
      async *session(requests, ctx) {
        const agent = deps.registry.bySessionId(ctx.requestHeader.get(AGENT_SESSION_HEADER) ?? '');
        if (!agent) throw new ConnectError('unknown agent session; register again', Code.Unauthenticated);
        const outbound = new AsyncQueue<MessageInitShape<typeof ServerMessageSchema>>();
        deps.registry.attach(agent.sessionId, outbound);
        // Inbound messages are read concurrently with the outbound stream.
        const reading = (async () => {
          try {
            for await (const msg of requests) {
              if (msg.kind.case === 'heartbeat') {
                deps.registry.touch(agent.sessionId, msg.kind.value.runningJobIds);
                outbound.push({ kind: { case: 'heartbeatAck', value: { cancelJobIds: [] } } });
              }
            }
          } finally {
            deps.registry.detach(agent.sessionId, outbound);
            outbound.close();
          }
        })();
        ctx.signal.addEventListener('abort', () => outbound.close());
        yield* outbound;
        await reading.catch(() => {});
      },
    });
}

export async function startAgentServer(
  deps: AgentServiceDeps,
  host: string,
  port: number,
): Promise<Http2Server> {
  const server = createServer(
    connectNodeAdapter({ routes: agentRoutes(deps), grpc: true, grpcWeb: false, connect: false }),
  );
  // Agents hold their HTTP/2 sessions open; remember them so that closing the server can end them.
  const sessions = new Set<ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  openSessions.set(server, sessions);
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolveListen());
  });
  return server;
}

const openSessions = new WeakMap<Http2Server, Set<ServerHttp2Session>>();

/** Stops accepting, lets in-flight calls finish (bounded), then ends the agents' sessions. */
export function closeAgentServer(server: Http2Server, graceMs = 5_000): Promise<void> {
  return new Promise((done) => {
    server.close(() => done());
    const sessions = openSessions.get(server) ?? new Set();
    for (const session of sessions) session.close();
    setTimeout(() => {
      for (const session of sessions) session.destroy();
    }, graceMs).unref();
  });
}
