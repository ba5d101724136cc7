// The agent's link to the control plane: register with the shared token (reporting the job runs still in
// progress, so a restarted server can reconcile), hold the session stream (heartbeats and a drain notice go
// up; assignments, cancellations and acks come down), and give the other calls (logs, reports, uploads) the
// current session. When the server cannot be reached or forgets the session, the agent says so plainly
// and registers again with capped exponential backoff and jitter; calls made meanwhile wait for the new
// session.
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

export const AGENT_VERSION = '0.2.0';

type AgentMessageInit = MessageInitShape<typeof AgentMessageSchema>;

export interface ConnectionEvents {
  onRegistered?(info: { agentId: string; sessionId: string; cancelJobIds: string[] }): void;
  onUnreachable?(info: { attempt: number; retryInMs: number; reason: string }): void;
  onRejected?(info: { attempt: number; retryInMs: number; reason: string }): void;
  onServerMessage?(message: ServerMessage): void;
}

export function backoffMs(attempt: number, baseMs = 500, capMs = 30_000): number {
  const exp = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + Math.random() * (exp / 2));
}

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
  private heartbeatTimer?: NodeJS.Timeout;
  private sessionAbort?: AbortController;
  private sessionWaiters: ((sessionId: string | undefined) => void)[] = [];
  private draining = false;
  sessionId?: string;

  /** Job runs in progress, reported on registration and every heartbeat; the worker replaces this. */
  runningJobIds: () => string[] = () => [];
  /** Slots free for new jobs, reported on heartbeats; the worker replaces this. */
  freeSlots: () => number = () => this.settings.capacity;

  constructor(
    private readonly settings: AgentSettings,
    private readonly events: ConnectionEvents = {},
  ) {
    this.client = createClient(AgentService, createGrpcTransport({ baseUrl: settings.serverUrl }));
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
      try {
        const reg = await this.client.register(
          {
            name: this.settings.name,
            tags: this.settings.tags,
            capacity: this.settings.capacity,
            version: AGENT_VERSION,
            hostname: hostname(),
            runningJobIds: this.runningJobIds(),
          },
          { headers: { authorization: `Bearer ${this.settings.token}` }, timeoutMs: 30_000 },
        );
        attempt = 0;
        const interval = reg.heartbeatIntervalMs || 10_000;
        const outbound = new AsyncQueue<AgentMessageInit>({ maxItems: 1000 });
        this.outbound = outbound;
        outbound.push(this.heartbeat());
        if (this.draining) outbound.push({ kind: { case: 'drain', value: {} } });
        this.heartbeatTimer = setInterval(() => outbound.push(this.heartbeat()), interval);
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
          this.events.onServerMessage?.(message);
        }
        if (!this.stopped) throw new ConnectError('the control plane closed the session', Code.Unavailable);
      } catch (err) {
        if (this.stopped) break;
        const ce = ConnectError.from(err);
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
