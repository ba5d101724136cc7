// The agent's link to the control plane: register with the shared token, then heartbeat on the interval the
// server asked for. When the server cannot be reached (or the session is lost) the agent says so plainly
// and retries with capped exponential backoff and jitter.
import { hostname } from 'node:os';
import {
  AGENT_SESSION_HEADER,
  type AgentMessageSchema,
  AgentService,
  type ServerMessage,
} from '@app/ci-proto';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { type Client, Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import type { AgentSettings } from './config.js';

export const AGENT_VERSION = '0.2.0';

export interface ConnectionEvents {
  onRegistered?(info: { agentId: string; sessionId: string }): void;
  onUnreachable?(info: { attempt: number; retryInMs: number; reason: string }): void;
  onRejected?(info: { attempt: number; retryInMs: number; reason: string }): void;
  onServerMessage?(message: ServerMessage): void;
}

export function backoffMs(attempt: number, baseMs = 500, capMs = 30_000): number {
  const exp = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + Math.random() * (exp / 2));
}

export class AgentConnection {
  private readonly client: Client<typeof AgentService>;
  private stopped = false;
  private wake?: () => void;
  sessionId?: string;

  constructor(
    private readonly settings: AgentSettings,
    private readonly events: ConnectionEvents = {},
  ) {
    this.client = createClient(AgentService, createGrpcTransport({ baseUrl: settings.serverUrl }));
  }

  /** The outbound half of the session stream: a heartbeat now and then every `intervalMs` until stopped. */
  private async *heartbeats(intervalMs: number): AsyncGenerator<MessageInitShape<typeof AgentMessageSchema>> {
    while (!this.stopped) {
      yield {
        kind: {
          case: 'heartbeat',
          value: { runningJobIds: this.runningJobIds(), freeSlots: this.settings.capacity },
        },
      };
      await this.sleep(intervalMs);
    }
  }

  /** Job runs in progress, reported on every heartbeat; the executor replaces this. */
  runningJobIds: () => string[] = () => [];

  private sleep(ms: number): Promise<void> {
    return new Promise((done) => {
      const timer = setTimeout(done, ms);
      this.wake = () => {
        clearTimeout(timer);
        done();
      };
    });
  }

  /** Runs until `stop()`: register, heartbeat, and re-register after losing the server. */
  async run(): Promise<void> {
    let attempt = 0;
    while (!this.stopped) {
      try {
        const reg = await this.client.register(
          {
            name: this.settings.name,
            tags: this.settings.tags,
            capacity: this.settings.capacity,
            version: AGENT_VERSION,
            hostname: hostname(),
          },
          { headers: { authorization: `Bearer ${this.settings.token}` }, timeoutMs: 10_000 },
        );
        attempt = 0;
        this.sessionId = reg.sessionId;
        this.events.onRegistered?.({ agentId: reg.agentId, sessionId: reg.sessionId });
        const interval = reg.heartbeatIntervalMs || 10_000;
        const stream = this.client.session(this.heartbeats(interval), {
          headers: { [AGENT_SESSION_HEADER]: reg.sessionId },
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
        const retryInMs = backoffMs(attempt);
        if (ce.code === Code.Unauthenticated && !this.sessionId) {
          this.events.onRejected?.({ attempt, retryInMs, reason: ce.rawMessage });
        } else {
          this.events.onUnreachable?.({ attempt, retryInMs, reason: ce.rawMessage });
        }
        this.sessionId = undefined;
        await this.sleep(retryInMs);
      }
    }
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }
}
