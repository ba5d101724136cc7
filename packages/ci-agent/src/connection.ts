// The agent's link to the control plane: register (with its own credential, or with the shared registration
// token the first time, keeping the credential it is given), reporting the job runs still in progress so a
// restarted server can reconcile; hold the session stream (heartbeats, a drain notice and — when the server
// offers it — job reports go up; assignments, cancellations and acks come down), and give the other calls
// (logs, reports, uploads) the current session.
// When the server cannot be reached or forgets the session, the agent says so plainly and registers again
// with capped exponential backoff and jitter; calls made meanwhile wait for the new session. A refused
// credential (revoked) or a changed server certificate is fatal: `run()` ends and `fatal` says why.
import { hostname } from 'node:os';
import {
  AGENT_SESSION_HEADER,
  type AgentMessageSchema,
  AgentService,
  type ServerMessage,
} from '@app/ci-proto';
import { AsyncQueue } from '@app/kit';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { type CallOptions, type Client, Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import type { AgentSettings } from './config.js';
import { type AgentIdentityStore, MemoryIdentityStore } from './identity-file.js';
import { type ServerCertificateError, trustedConnection } from './server-trust.js';
import { type JobReportInit, SessionReports } from './session-reports.js';

export const AGENT_VERSION = '0.2.0';

type AgentMessageInit = MessageInitShape<typeof AgentMessageSchema>;

export interface ConnectionEvents {
  onRegistered?(info: { agentId: string; sessionId: string; cancelJobIds: string[] }): void;
  onUnreachable?(info: { attempt: number; retryInMs: number; reason: string }): void;
  onRejected?(info: { attempt: number; retryInMs: number; reason: string }): void;
  onServerMessage?(message: ServerMessage): void;
  /** The server's certificate was pinned on first use. */
  onPinned?(info: { server: string; fingerprint: string }): void;
  /** The agent cannot go on (credential refused, certificate changed); `run()` returns after this. */
  onFatal?(info: { reason: string }): void;
}

/** Where the agent keeps its credential and pins, and how it checks the server's certificate. */
export interface ConnectionOptions {
  /** Default: in memory (tests and embedded agents); main.ts uses the file in the work directory. */
  identity?: AgentIdentityStore;
}

export function backoffMs(attempt: number, baseMs = 500, capMs = 30_000): number {
  const exp = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + Math.random() * (exp / 2));
}

/** Trailer of a refused credential: `revoked` (stop) or `unknown` (register again with the token). */
export const CREDENTIAL_STATUS_HEADER = 'x-agent-credential';

/** Errors worth retrying: the server is away, restarting, or forgot this session. */
export function isTransient(err: unknown): boolean {
  const code = ConnectError.from(err).code;
  return (
    code === Code.Unavailable ||
    code === Code.Unauthenticated ||
    code === Code.DeadlineExceeded ||
    code === Code.Unknown ||
    code === Code.Internal ||
    code === Code.Aborted ||
    code === Code.Canceled
  );
}

export class ConnectionStoppedError extends Error {
  override name = 'ConnectionStoppedError';
  constructor() {
    super('the agent is stopping');
  }
}

export class AgentConnection {
  readonly client: Client<typeof AgentService>;
  private stopped = false;
  private wake?: () => void;
  private outbound?: AsyncQueue<AgentMessageInit>;
  /** The session's reports on its stream, when the server offered it at registration. */
  private sessionReports?: SessionReports;
  private heartbeatTimer?: NodeJS.Timeout;
  private sessionAbort?: AbortController;
  private sessionWaiters: ((sessionId: string | undefined) => void)[] = [];
  private draining = false;
  sessionId?: string;

  /** Job runs in progress, reported on registration and every heartbeat; the worker replaces this. */
  runningJobIds: () => string[] = () => [];
  /** Engines reported at registration (`podman`, `sandbox`, `host`); main sets them after detecting. */
  engines: string[] = [];
  /** Slots free for new jobs, reported on heartbeats; the worker replaces this. */
  freeSlots: () => number = () => this.settings.capacity;

  /** Why the agent stopped for good (credential refused, server certificate changed). */
  fatal?: string;
  private readonly identity: AgentIdentityStore;
  private certificateRefused?: ServerCertificateError;

  constructor(
    private readonly settings: AgentSettings,
    private readonly events: ConnectionEvents = {},
    options: ConnectionOptions = {},
  ) {
    this.identity = options.identity ?? new MemoryIdentityStore();
    const url = new URL(settings.serverUrl);
    const address = `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`;
    const nodeOptions =
      url.protocol === 'https:'
        ? trustedConnection({
            address,
            caPath: settings.serverCa,
            fingerprint: settings.serverFingerprint,
            store: this.identity,
            onPinned: (fingerprint) => events.onPinned?.({ server: address, fingerprint }),
            onRefused: (err) => {
              this.certificateRefused = err;
            },
          })
        : undefined;
    this.client = createClient(
      AgentService,
      createGrpcTransport({ baseUrl: settings.serverUrl, ...(nodeOptions ? { nodeOptions } : {}) }),
    );
  }

  /** The bearer of Register: the agent's own credential once it has one, else the registration token. */
  private bearer(): { token: string; isCredential: boolean } {
    const record = this.identity.read();
    if (record.credential && (!record.name || record.name === this.settings.name))
      return { token: record.credential, isCredential: true };
    return { token: this.settings.token, isCredential: false };
  }

  private keepCredential(credential: string): void {
    if (!credential) return;
    const record = this.identity.read();
    this.identity.write({ ...record, credential, name: this.settings.name });
  }

  private forgetCredential(): void {
    const { servers } = this.identity.read();
    this.identity.write({ servers });
  }

  private stopFatally(reason: string): void {
    this.fatal = reason;
    this.events.onFatal?.({ reason });
    this.stop();
  }

  private heartbeat(): AgentMessageInit {
    return {
      kind: {
        case: 'heartbeat',
        value: { runningJobIds: this.runningJobIds(), freeSlots: Math.max(0, this.freeSlots()) },
      },
    };
  }

  /** Sends a heartbeat now (after a job ended, so the server sees the slot and the lease state early). */
  heartbeatNow(): void {
    this.outbound?.push(this.heartbeat());
  }

  /**
   * Sends job reports on the session stream (session-reports.ts); undefined when there is no session or its
   * server does not take them there (then the caller uses ReportJob).
   */
  reportOnSession(reports: JobReportInit[]) {
    return this.sessionReports?.send(reports);
  }

  /** Tells the server to send no more jobs (SIGTERM drain); repeated on every new session. */
  drain(): void {
    this.draining = true;
    this.outbound?.push({ kind: { case: 'drain', value: {} } });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((done) => {
      const timer = setTimeout(done, ms);
      this.wake = () => {
        clearTimeout(timer);
        done();
      };
    });
  }

  /** The current session id, waiting for a registration when there is none. */
  session(): Promise<string> {
    if (this.stopped) return Promise.reject(new ConnectionStoppedError());
    if (this.sessionId) return Promise.resolve(this.sessionId);
    return new Promise((resolve, reject) => {
      this.sessionWaiters.push((id) => (id ? resolve(id) : reject(new ConnectionStoppedError())));
    });
  }

  private setSession(id: string | undefined): void {
    this.sessionId = id;
    if (id === undefined && !this.stopped) return;
    const waiters = this.sessionWaiters;
    this.sessionWaiters = [];
    for (const w of waiters) w(id);
  }

  /** Forgets a session the server no longer knows, so the run loop registers again. */
  private invalidate(sessionId: string): void {
    if (this.sessionId !== sessionId) return;
    this.sessionId = undefined;
    this.sessionAbort?.abort();
  }

  /**
   * Calls the server with the current session, retrying transient failures (server away or restarted) with
   * backoff until `retryForMs` has passed. Other errors (a refusal) are thrown at once. `timeoutMs` bounds
   * each attempt (0: no bound, for uploads whose length depends on the data).
   */
  async call<T>(
    fn: (options: CallOptions) => Promise<T>,
    retryForMs = 60_000,
    timeoutMs = 120_000,
  ): Promise<T> {
    const deadline = Date.now() + retryForMs;
    for (let attempt = 1; ; attempt++) {
      const sessionId = await this.session();
      try {
        const headers = { [AGENT_SESSION_HEADER]: sessionId };
        return await fn(timeoutMs > 0 ? { headers, timeoutMs } : { headers });
      } catch (err) {
        if (this.stopped || !isTransient(err) || Date.now() >= deadline) throw err;
        if (ConnectError.from(err).code === Code.Unauthenticated) this.invalidate(sessionId);
        await new Promise((r) =>
          setTimeout(r, Math.min(backoffMs(attempt, 200, 5_000), deadline - Date.now())),
        );
      }
    }
  }

  /** Runs until `stop()`: register, hold the session, and register again after losing the server. */
  async run(): Promise<void> {
    let attempt = 0;
    while (!this.stopped) {
      const abort = new AbortController();
      this.sessionAbort = abort;
      const bearer = this.bearer();
      try {
        const reg = await this.client.register(
          {
            name: this.settings.name,
            tags: this.settings.tags,
            capacity: this.settings.capacity,
            version: AGENT_VERSION,
            hostname: hostname(),
            runningJobIds: this.runningJobIds(),
            engines: this.engines,
          },
          { headers: { authorization: `Bearer ${bearer.token}` }, timeoutMs: 30_000 },
        );
        this.keepCredential(reg.credential);
        attempt = 0;
        const interval = reg.heartbeatIntervalMs || 10_000;
        const outbound = new AsyncQueue<AgentMessageInit>({ maxItems: 1000 });
        this.outbound = outbound;
        outbound.push(this.heartbeat());
        if (this.draining) outbound.push({ kind: { case: 'drain', value: {} } });
        this.heartbeatTimer = setInterval(() => outbound.push(this.heartbeat()), interval);
        const reports = reg.sessionReports ? new SessionReports(outbound) : undefined;
        this.sessionReports = reports;
        const stream = this.client.session(outbound, {
          headers: { [AGENT_SESSION_HEADER]: reg.sessionId },
          signal: abort.signal,
        });
        this.setSession(reg.sessionId);
        this.events.onRegistered?.({
          agentId: reg.agentId,
          sessionId: reg.sessionId,
          cancelJobIds: reg.cancelJobIds,
        });
        for await (const message of stream) {
          if (this.stopped) break;
          if (message.kind.case === 'reportResults') reports?.answered(message.kind.value);
          else this.events.onServerMessage?.(message);
        }
        if (!this.stopped) throw new ConnectError('the control plane closed the session', Code.Unavailable);
      } catch (err) {
        if (this.stopped) break;
        const ce = ConnectError.from(err);
        if (this.certificateRefused) {
          this.stopFatally(this.certificateRefused.message);
          break;
        }
        const refused = ce.code === Code.Unauthenticated || ce.code === Code.PermissionDenied;
        const status = ce.metadata.get(CREDENTIAL_STATUS_HEADER);
        if (refused && status === 'revoked') {
          const what = bearer.isCredential ? "this agent's credential" : 'this agent';
          this.stopFatally(`the control plane refused ${what}: ${ce.rawMessage}`);
          break;
        }
        if (bearer.isCredential && !this.sessionId && refused) {
          // A server whose store was reset does not know the credential: enrol again with the token.
          if (status === 'unknown' && this.settings.token) {
            this.forgetCredential();
            this.events.onRejected?.({
              attempt,
              retryInMs: 0,
              reason: `${ce.rawMessage}; registering again`,
            });
            continue;
          }
          this.stopFatally(`the control plane refused this agent's credential: ${ce.rawMessage}`);
          break;
        }
        attempt += 1;
        // The control plane answered (only its database is down): it is reachable, so retry soon rather
        // than backing off towards 30 s and staying away after the database is back.
        const serverUp = ce.code === Code.Unavailable && /database is unavailable/.test(ce.rawMessage);
        const retryInMs = serverUp ? Math.min(backoffMs(attempt), 2_000) : backoffMs(attempt);
        if (ce.code === Code.Unauthenticated && !this.sessionId) {
          this.events.onRejected?.({ attempt, retryInMs, reason: ce.rawMessage });
        } else {
          this.events.onUnreachable?.({ attempt, retryInMs, reason: ce.rawMessage });
        }
        this.endSession();
        await this.sleep(retryInMs);
      } finally {
        this.endSession();
      }
    }
    this.setSession(undefined);
  }

  private endSession(): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
    this.outbound?.close();
    this.outbound = undefined;
    this.sessionReports?.end();
    this.sessionReports = undefined;
    this.sessionId = undefined;
  }

  stop(): void {
    this.stopped = true;
    this.sessionAbort?.abort();
    this.endSession();
    this.setSession(undefined);
    this.wake?.();
  }
}
