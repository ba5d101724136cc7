// Carries the log batches of all of an agent's jobs to the control plane, one PushLogBatches call for what
// they hand over in one turn of the event loop (turn-batcher.ts). Each job's LogShipper decides when its batch
// leaves (log-shipper.ts: at once after a quiet spell, on the ticks shared by every shipper under volume); the
// batches the shippers hand over in one turn — under volume, every busy job's round, since their rounds start
// on the same tick — go together on the next turn, and each shipper gets its own job's answer. A control plane
// that predates PushLogBatches gets each batch with PushLogs for that session. A refused call fails each of
// its batches: each job's shipper retries its own.

import type { ShippedLine } from './log-shipper.js';
import { type ItemResult, TurnBatcher } from './turn-batcher.js';

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

export class LogCourier {
  private readonly batcher: TurnBatcher<CourierBatch, number>;

  constructor(calls: CourierCalls) {
    this.batcher = new TurnBatcher({
      many: async (batches): Promise<ItemResult<number>[]> =>
        (await calls.many(batches)).map((r) => ({ ...r, value: Number(r.ackedSeq) })),
      one: (batch) => calls.one(batch),
      session: () => calls.session?.(),
      maxItems: MAX_CALL_BATCHES,
      maxBytes: MAX_CALL_BYTES,
      bytesOf: (batch) => {
        let bytes = 0;
        for (const l of batch.lines) bytes += 3 * l.text.length + LINE_FIELDS_BYTES;
        return bytes;
      },
    });
  }

  /** Calls made: PushLogBatches, PushLogs; batches carried. */
  get stats() {
    const { many, one, items } = this.batcher.stats;
    return { many, one, batches: items };
  }

  /** Sends one job run's batch with the others of this turn; resolves with the highest seq stored. */
  send(jobRunId: string, lines: ShippedLine[]): Promise<number> {
    return this.batcher.send({ jobRunId, lines });
  }
}
