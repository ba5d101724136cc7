// The agent protocol endpoint: ConnectRPC speaking gRPC over HTTP/2 on CI_GRPC_PORT — TLS by default
// (agents/tls.ts), cleartext only when configured. Agents dial out (so they work behind NAT): Register with
// the shared registration token the first time and their own credential afterwards (agents/identity.ts),
// hold the Session stream (assignments and cancellations go down it, heartbeats come up), and send logs,
// results, service events, test reports, artifacts and caches on their own calls. Every call after Register
// names the session; every call about a job run is refused unless that agent holds (or held) the job run.
import {
  createSecureServer,
  createServer,
  type Http2SecureServer,
  type Http2Server,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type ServerHttp2Session,
} from 'node:http2';
import {
  AGENT_SESSION_HEADER,
  type AgentMessage,
  AgentMessageSchema,
  AgentService,
  type JobReport,
  JobReportAckSchema,
  JobReportSchema,
  LogAckSchema,
  type LogBatch,
  type LogBatches,
  LogBatchesSchema,
  LogBatchResultsSchema,
  LogBatchSchema,
  ServerMessageSchema,
} from '@app/ci-proto';
import { isDatabaseUnavailable } from '@app/kit';
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { ExecutionDataCalls } from './execution-data-calls.js';
import { directStreamCalls } from './grpc-stream.js';
import { directUnaryCalls } from './grpc-unary.js';
import type { AgentIdentity } from './identity.js';
import { LogCalls } from './log-calls.js';
import { DATABASE_UNAVAILABLE_AGENT } from './refusals.js';
import { type AgentSessionDeps, AgentSessions } from './sessions.js';

/** How often agents heartbeat unless configured (a lease lapses after three missed: control-plane.ts). */
export const HEARTBEAT_INTERVAL_MS = 10_000;
/** Largest message an agent may send. */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

export interface AgentServiceDeps extends AgentSessionDeps {
  identity: AgentIdentity;
}

/** What the agent port serves: TLS with this certificate, or cleartext HTTP/2 when undefined. */
export type AgentServerTls = { cert: string; key: string } | undefined;

type AgentHttp2Server = Http2Server | Http2SecureServer;

function bearer(header: string | null): string {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  return m ? m[1].trim() : '';
}

const codeName = (err: unknown) => Code[ConnectError.from(err).code] ?? 'Unknown';

/**
 * A database outage reaches agents as `Unavailable` with a message saying so (they retry soon, keeping
 * their jobs), never as an internal error.
 */
function unavailable(err: unknown): unknown {
  if (err instanceof ConnectError || !isDatabaseUnavailable(err)) return err;
  return new ConnectError(DATABASE_UNAVAILABLE_AGENT, Code.Unavailable);
}

export { DATABASE_UNAVAILABLE_AGENT };

/** Paths served directly in the plain case (grpc-unary.ts, grpc-stream.ts), by Connect otherwise. */
const REPORT_JOB_PATH = `/${AgentService.typeName}/${AgentService.method.reportJob.name}`;
const PUSH_LOGS_PATH = `/${AgentService.typeName}/${AgentService.method.pushLogs.name}`;
const PUSH_LOG_BATCHES_PATH = `/${AgentService.typeName}/${AgentService.method.pushLogBatches.name}`;
const SESSION_PATH = `/${AgentService.typeName}/${AgentService.method.session.name}`;

/**
 * The agent service: Connect's routes for every method, and the direct paths for the calls a job makes
 * (ReportJob, twice, from agents that do not send their reports on the Session stream; PushLogBatches, once
 * per round of an agent's log batches, or PushLogs, once per batch) and the stream its assignment goes down
 * and its reports up (Session), both calling the same counted implementation.
 */
export function agentCalls(deps: AgentServiceDeps, sessions = new AgentSessions(deps)) {
  const dataCalls = new ExecutionDataCalls(sessions, deps);
  const logCalls = new LogCalls(sessions, deps.data);
  const count = (method: string, code: string) => deps.data.metrics.grpcCall(method, code);
  /** Counts a unary or client-streaming call by its outcome. */
  const unary = <A extends unknown[], R>(method: string, fn: (...args: A) => Promise<R>) => {
    return async (...args: A): Promise<R> => {
      try {
        const out = await fn(...args);
        count(method, 'OK');
        return out;
      } catch (err) {
        const out = unavailable(err);
        count(method, codeName(out));
        throw out;
      }
    };
  };
  /** Counts a server-streaming call when its stream ends. */
  const streaming = <A extends unknown[], R>(method: string, fn: (...args: A) => AsyncIterable<R>) => {
    return async function* (...args: A): AsyncIterable<R> {
      try {
        yield* fn(...args);
        count(method, 'OK');
      } catch (err) {
        count(method, codeName(err));
        throw err;
      }
    };
  };
  const agentOf = (ctx: HandlerContext) => sessions.agent(ctx.requestHeader.get(AGENT_SESSION_HEADER) ?? '');
  const reportJob = unary('ReportJob', async (req: JobReport, session: string) =>
    sessions.reportJob(sessions.agent(session), req),
  );
  const pushLogs = unary('PushLogs', async (req: LogBatch, session: string) =>
    logCalls.pushLogs(sessions.agent(session), req),
  );
  const pushLogBatches = unary('PushLogBatches', async (req: LogBatches, session: string) =>
    logCalls.pushLogBatches(sessions.agent(session), req),
  );
  const session = streaming(
    'Session',
    (requests: AsyncIterable<AgentMessage>, id: string, signal: AbortSignal) =>
      sessions.session(sessions.agent(id), requests, signal),
  );
  const directStream = directStreamCalls(
    new Map([
      [
        SESSION_PATH,
        {
          input: AgentMessageSchema,
          output: ServerMessageSchema,
          handle: (
            requests: AsyncIterable<AgentMessage>,
            header: (name: string) => string | undefined,
            signal: AbortSignal,
          ) => session(requests, header(AGENT_SESSION_HEADER) ?? '', signal),
        },
      ],
    ]),
    MAX_MESSAGE_BYTES,
  );
  const directUnary = directUnaryCalls(
    new Map([
      [
        REPORT_JOB_PATH,
        {
          input: JobReportSchema,
          output: JobReportAckSchema,
          handle: (req: JobReport, header: (name: string) => string | undefined) =>
            reportJob(req, header(AGENT_SESSION_HEADER) ?? ''),
        },
      ],
      [
        PUSH_LOGS_PATH,
        {
          input: LogBatchSchema,
          output: LogAckSchema,
          handle: (req: LogBatch, header: (name: string) => string | undefined) =>
            pushLogs(req, header(AGENT_SESSION_HEADER) ?? ''),
        },
      ],
      [
        PUSH_LOG_BATCHES_PATH,
        {
          input: LogBatchesSchema,
          output: LogBatchResultsSchema,
          handle: (req: LogBatches, header: (name: string) => string | undefined) =>
            pushLogBatches(req, header(AGENT_SESSION_HEADER) ?? ''),
        },
      ],
    ]),
    MAX_MESSAGE_BYTES,
  );
  const routes = (router: ConnectRouter) =>
    router.service(AgentService, {
      register: unary('Register', async (req, ctx) => {
        const proof = await deps.identity.authenticate(bearer(ctx.requestHeader.get('authorization')));
        return sessions.register(req, proof);
      }),
      session: (requests, ctx) =>
        session(requests, ctx.requestHeader.get(AGENT_SESSION_HEADER) ?? '', ctx.signal),
      pushLogs: (req, ctx) => pushLogs(req, ctx.requestHeader.get(AGENT_SESSION_HEADER) ?? ''),
      pushLogBatches: (req, ctx) => pushLogBatches(req, ctx.requestHeader.get(AGENT_SESSION_HEADER) ?? ''),
      reportJob: (req, ctx) => reportJob(req, ctx.requestHeader.get(AGENT_SESSION_HEADER) ?? ''),
      reportService: unary('ReportService', async (req, ctx) => dataCalls.reportService(agentOf(ctx), req)),
      reportTests: unary('ReportTests', async (req, ctx) => dataCalls.reportTests(agentOf(ctx), req)),
      uploadArtifact: unary('UploadArtifact', async (requests, ctx) =>
        dataCalls.uploadArtifact(agentOf(ctx), requests),
      ),
      downloadArtifact: streaming('DownloadArtifact', (req, ctx) =>
        dataCalls.downloadArtifact(agentOf(ctx), req),
      ),
      downloadCache: streaming('DownloadCache', (req, ctx) => dataCalls.downloadCache(agentOf(ctx), req)),
      uploadCache: unary('UploadCache', async (requests, ctx) =>
        dataCalls.uploadCache(agentOf(ctx), requests),
      ),
    });
  const direct = (req: Http2ServerRequest, res: Http2ServerResponse) =>
    directUnary(req, res) || directStream(req, res);
  return { routes, direct };
}

export async function startAgentServer(
  deps: AgentServiceDeps,
  sessions: AgentSessions,
  host: string,
  port: number,
  tls: AgentServerTls,
): Promise<AgentHttp2Server> {
  const calls = agentCalls(deps, sessions);
  const connect = connectNodeAdapter({
    routes: calls.routes,
    grpc: true,
    grpcWeb: false,
    connect: false,
    // One message at most: a log batch of long lines, a 256 KiB data chunk, a test report.
    readMaxBytes: MAX_MESSAGE_BYTES,
  });
  const handler = (req: Http2ServerRequest, res: Http2ServerResponse) => {
    if (!calls.direct(req, res)) connect(req, res);
  };
  const server: AgentHttp2Server = tls
    ? createSecureServer({ cert: tls.cert, key: tls.key, allowHTTP1: false, minVersion: 'TLSv1.2' }, handler)
    : createServer(handler);
  // Agents hold their HTTP/2 sessions open; remember them so that closing the server can end them.
  const open = new Set<ServerHttp2Session>();
  server.on('session', (session) => {
    open.add(session);
    session.once('close', () => open.delete(session));
  });
  openSessions.set(server, open);
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolveListen());
  });
  return server;
}

const openSessions = new WeakMap<AgentHttp2Server, Set<ServerHttp2Session>>();

/** Stops accepting, lets in-flight calls finish (bounded), then ends the agents' sessions. */
export function closeAgentServer(server: AgentHttp2Server, graceMs = 5_000): Promise<void> {
  return new Promise((done) => {
    server.close(() => done());
    const sessions = openSessions.get(server) ?? new Set();
    for (const session of sessions) session.close();
    setTimeout(() => {
      for (const session of sessions) session.destroy();
    }, graceMs).unref();
  });
}
