// What one replica tells the others on the shared PostgreSQL, so that work committed through any replica is
// acted on at once by all of them: run changes (jobs queued, agents to stop, runs finished) go out on
// `ci_run_changes` and come back in as `remote` run events (the dispatcher claims the queued jobs for its
// own agents — the claim stays the store's conditional UPDATE, so a notification only wakes, it never
// decides); stored log lines go out on `ci_log_lines` as the run id only, and wake the other replicas'
// followers of that run to read the store. Both are sent at once after a quiet spell and gathered while a
// send is in flight (notify-coalescer.ts), a round's notifications in one statement. Notifications are hints: after the listening connection (re)connects, the
// dispatcher resyncs and every follower re-reads, because what was sent meanwhile is lost. SQLite runs one
// server and has none of this (server.ts creates it only for PostgreSQL).
import { randomUUID } from 'node:crypto';
import type { Effect } from '../domain/index.js';
import type { RunChange, RunEvents } from '../events/run-events.js';
import type { LogHub } from '../logs/hub.js';
import { logTrace, logTraceOn } from './log-trace.js';
import { NotifyCoalescer } from './notify-coalescer.js';
import { MAX_PAYLOAD_BYTES, PgNotifier } from './pg-notifier.js';

export const RUN_CHANNEL = 'ci_run_changes';
export const LOG_CHANNEL = 'ci_log_lines';

export interface ReplicaSignalsOptions {
  url: string;
  events: RunEvents;
  hub: LogHub;
  /** Reads the store for work no notification announced (the dispatcher's resync). */
  resync(): Promise<void>;
  log: { warn(obj: object, msg: string): void };
}

/** Effects another replica's memory acts on; the rest (stages, gates) are the store's business. */
type Relayed = Extract<Effect, { kind: 'enqueue' | 'cancel-agent' | 'run-finished' }>;
const RELAYED = new Set(['enqueue', 'cancel-agent', 'run-finished']);

interface RunMessage {
  from: string;
  runId: string;
  effects: Relayed[];
}

export class ReplicaSignals {
  /** This process among the replicas (its own notifications come back to it and are skipped). */
  readonly id = randomUUID();
  private readonly notifier: PgNotifier;
  /** Runs with lines stored: announced at once when idle, gathered while a round of sends is in flight. */
  private readonly storedRuns = new NotifyCoalescer((runs) => this.sendLogRuns(runs));
  /**
   * Run-change messages, gathered the same way: those of one turn of the event loop (a batch of reports
   * finishing several runs) and those made while a round is in flight leave in one statement, each its own
   * notification. A message repeated within a round is sent once (PostgreSQL would fold it anyway).
   */
  private readonly runMessages = new NotifyCoalescer((payloads) => this.sendRunMessages(payloads));
  private started = false;
  /**
   * `logRounds`: statements that sent stored-lines notifications (each for every run of its round);
   * `runRounds`: statements that sent run-change messages.
   */
  readonly stats = { sent: 0, received: 0, reconnects: 0, logRounds: 0, runRounds: 0 };

  constructor(private readonly options: ReplicaSignalsOptions) {
    let first = true;
    this.notifier = new PgNotifier({
      url: options.url,
      channels: [RUN_CHANNEL, LOG_CHANNEL],
      log: options.log,
      onNotification: (channel, payload) => this.receive(channel, payload),
      onConnected: () => {
        if (first) {
          first = false;
          return;
        }
        this.stats.reconnects++;
        options.resync().catch((err) => options.log.warn({ err }, 'resync after reconnecting failed'));
        options.hub.storedElsewhere();
      },
    });
    options.hub.onPublish((runId) => this.announceLines(runId));
  }

  get listening(): boolean {
    return this.notifier.listening;
  }

  async start(): Promise<void> {
    this.started = true;
    await this.notifier.start();
  }

  async stop(): Promise<void> {
    this.started = false;
    await this.notifier.stop();
  }

  /**
   * A change this process committed, told to the other replicas (between start and stop). server.ts
   * subscribes it to the run events; `events` is only where the others' changes are received into.
   */
  announceChange(change: RunChange): void {
    if (!this.started) return;
    const effects = change.effects.filter((e): e is Relayed => RELAYED.has(e.kind));
    if (effects.length === 0) return;
    // A large matrix queues more job ids than one payload holds: split into messages under the limit.
    let batch: Relayed[] = [];
    let size = 0;
    const flush = () => {
      if (batch.length === 0) return;
      this.runMessages.announce(JSON.stringify({ from: this.id, runId: change.runId, effects: batch }));
      batch = [];
      size = 0;
    };
    for (const effect of effects) {
      const bytes = JSON.stringify(effect).length + 1;
      if (size + bytes > MAX_PAYLOAD_BYTES - 200) flush();
      batch.push(effect);
      size += bytes;
    }
    flush();
  }

  private announceLines(runId: string): void {
    if (!this.started) return;
    this.storedRuns.announce(runId);
  }

  /** One statement for the round: a notification per run (what a replica of any version understands). */
  private async sendLogRuns(runs: string[]): Promise<void> {
    if (!this.started) return;
    if (logTraceOn) for (const id of runs) logTrace('notify', id);
    this.stats.sent += runs.length;
    this.stats.logRounds++;
    await this.notifier
      .sendMany(
        LOG_CHANNEL,
        runs.map((id) => `${this.id} ${id}`),
      )
      .catch(() => undefined);
  }

  /** One statement for the round, one notification per message, in the order they were made. */
  private async sendRunMessages(payloads: string[]): Promise<void> {
    if (!this.started) return;
    this.stats.sent += payloads.length;
    this.stats.runRounds++;
    // A notification that cannot be sent (database down) is covered by the periodic resync and reads.
    await this.notifier.sendMany(RUN_CHANNEL, payloads).catch(() => undefined);
  }

  private receive(channel: string, payload: string): void {
    if (channel === LOG_CHANNEL) {
      const [from, runId] = payload.split(' ');
      if (from === this.id || !runId) return;
      this.stats.received++;
      if (logTraceOn) logTrace('heard', runId);
      this.options.hub.storedElsewhere(runId);
      return;
    }
    if (channel !== RUN_CHANNEL) return;
    let message: RunMessage;
    try {
      message = JSON.parse(payload) as RunMessage;
    } catch {
      return;
    }
    if (message.from === this.id || typeof message.runId !== 'string' || !Array.isArray(message.effects))
      return;
    this.stats.received++;
    this.options.events.receive({ runId: message.runId, effects: message.effects });
  }
}
