// Carries the log batches of all of an agent's jobs to the control plane, one call for what they hand over in
// one turn of the event loop. Each job's LogShipper decides when its batch leaves (log-shipper.ts: at once
// after a quiet spell, on the ticks shared by every shipper under volume); the batches the shippers hand over
// in one turn — under volume, every busy job's round, since their rounds start on the same tick — go on the
// next turn (`setImmediate`, no timer) in one PushLogBatches call, and each shipper gets its own job's answer.
// One call instead of one per job: the control plane pays its per-call cost (HTTP/2 stream, envelope, handler)
// once per round of the agent rather than once per job, and so does the agent.
// A control plane that predates PushLogBatches answers UNIMPLEMENTED without storing anything: the courier
// then sends each batch with PushLogs, as agents did before, for the rest of that session (a new session,
// after a reconnect, may be with an upgraded server: it tries PushLogBatches again).
import { Code, ConnectError } from '@connectrpc/connect';
import type { ShippedLine } from './log-shipper.js';

/** One job run's batch, as a shipper hands it over. */
export interface CourierBatch {
  jobRunId: string;
  lines: ShippedLine[];
}

/** The answer for one batch of a PushLogBatches call: the ack, or the code and message of its refusal. */
export interface CourierResult {
  ackedSeq: bigint;
  code: number;
  message: string;
}

/** The two calls a courier makes (the worker binds them to its AgentConnection). */
export interface CourierCalls {
  /** PushLogBatches: one result per batch, in order. */
  many(batches: CourierBatch[]): Promise<CourierResult[]>;
  /** PushLogs: the highest seq stored for the job run. */
  one(batch: CourierBatch): Promise<number>;
  /**
   * Which session the calls go to (the agent's session id): PushLogs is used instead of PushLogBatches for
   * the session whose server did not know the latter.
   */
  session?(): string | undefined;
}

/** Batches of one call at most (the control plane takes up to 1,024). */
const MAX_CALL_BATCHES = 256;
/**
 * Bytes of one call at most, counted as the most a batch can encode to: 3 bytes of UTF-8 per UTF-16 unit of
 * text (a surrogate pair is 4 for 2) and under 32 for a line's other fields. Half the 32 MiB a control plane
 * reads, so no turn's call is refused whole for its size (8 Mi characters, the bound before, could encode
 * to 24 MiB of text and more in fields).
 */
const MAX_CALL_BYTES = 16 * 1024 * 1024;
const LINE_FIELDS_BYTES = 32;

interface Waiting extends CourierBatch {
  bytes: number;
  resolve(acked: number): void;
  reject(err: unknown): void;
}

export class LogCourier {
  private waiting: Waiting[] = [];
  private scheduled = false;
  /** The session whose server answered UNIMPLEMENTED to PushLogBatches (its batches go one by one). */
  private legacySession: string | undefined | null = null;
  /** Calls made: PushLogBatches, PushLogs; batches carried. */
  readonly stats = { many: 0, one: 0, batches: 0 };

  constructor(private readonly calls: CourierCalls) {}

  /** Sends one job run's batch with the others of this turn; resolves with the highest seq stored. */
  send(jobRunId: string, lines: ShippedLine[]): Promise<number> {
    return new Promise((resolve, reject) => {
      let bytes = 0;
      for (const l of lines) bytes += 3 * l.text.length + LINE_FIELDS_BYTES;
      this.waiting.push({ jobRunId, lines, bytes, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // The next turn, not a timer: every batch the shippers hand over in this turn joins the call.
      setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    this.scheduled = false;
    const all = this.waiting;
    this.waiting = [];
    this.stats.batches += all.length;
    if (this.legacy()) {
      for (const w of all) this.sendOne(w);
      return;
    }
    let group: Waiting[] = [];
    let bytes = 0;
    for (const w of all) {
      if (group.length > 0 && (group.length >= MAX_CALL_BATCHES || bytes + w.bytes > MAX_CALL_BYTES)) {
        void this.sendMany(group);
        group = [];
        bytes = 0;
      }
      group.push(w);
      bytes += w.bytes;
    }
    if (group.length > 0) void this.sendMany(group);
  }

  private legacy(): boolean {
    return this.legacySession !== null && this.legacySession === this.calls.session?.();
  }

  private sendOne(w: Waiting): void {
    this.stats.one++;
    this.calls.one(w).then(w.resolve, w.reject);
  }

  private async sendMany(group: Waiting[]): Promise<void> {
    const session = this.calls.session?.();
    this.stats.many++;
    let results: CourierResult[];
    try {
      results = await this.calls.many(group.map(({ jobRunId, lines }) => ({ jobRunId, lines })));
    } catch (err) {
      if (ConnectError.from(err).code === Code.Unimplemented) {
        // A control plane from before PushLogBatches (it stored nothing): one PushLogs per batch, from now
        // on for this session.
        this.legacySession = session;
        for (const w of group) this.sendOne(w);
        return;
      }
      for (const w of group) w.reject(err);
      return;
    }
    for (const [i, w] of group.entries()) {
      const r = results[i];
      if (!r) w.reject(new ConnectError('the control plane did not answer for this batch', Code.Internal));
      else if (r.code === 0) w.resolve(Number(r.ackedSeq));
      else w.reject(new ConnectError(r.message, r.code as Code));
    }
  }
}
