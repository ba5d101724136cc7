// Ships one job run's log lines to the control plane in batches: a batch leaves when 100 lines are waiting
// or 200 ms after the first of them, one batch in flight at a time. The server answers with the highest seq
// it has stored; lines up to it are dropped, the rest are sent again (after a failure, with backoff), so a
// server restart loses nothing the agent still holds. The buffer is bounded: past the limit the texts of new
// lines are dropped — their seqs are still sent, as empty lines after one that says so — because the
// server stores a job's lines only without gaps.
import type { LogLine } from './executor/log.js';

export interface ShippedLine {
  seq: bigint;
  stream: string;
  atMs: bigint;
  text: string;
}

/** Sends a batch; resolves with the highest seq the server has stored for the job run. */
export type SendBatch = (lines: ShippedLine[]) => Promise<number>;

export interface ShipperOptions {
  batchLines?: number;
  batchDelayMs?: number;
  /** Buffered lines (with text) before texts are dropped; default 100,000. */
  maxLines?: number;
  /** Buffered characters before texts are dropped; default 32 Mi. */
  maxChars?: number;
  onError?(err: unknown): void;
}

interface Gap {
  from: number;
  to: number;
  at: number;
}

type Entry = ShippedLine | Gap;
const isGap = (e: Entry): e is Gap => 'from' in e;

/** Characters of text per batch at most (the server takes messages of up to 32 MiB). */
const BATCH_CHARS = 4 * 1024 * 1024;

export const DROPPED_NOTE =
  '[ci] log lines dropped: the control plane was unreachable and the agent log buffer was full';

export class LogShipper {
  private readonly entries: Entry[] = [];
  private acked = 0;
  private lastSeq = 0;
  private chars = 0;
  private lines = 0;
  private timer?: NodeJS.Timeout;
  private sending?: Promise<void>;
  private failures = 0;
  private abandoned = false;
  private idleWaiters: (() => void)[] = [];
  private readonly batchLines: number;
  private readonly batchDelayMs: number;
  private readonly maxLines: number;
  private readonly maxChars: number;

  constructor(
    private readonly send: SendBatch,
    private readonly options: ShipperOptions = {},
  ) {
    this.batchLines = options.batchLines ?? 100;
    this.batchDelayMs = options.batchDelayMs ?? 200;
    this.maxLines = options.maxLines ?? 100_000;
    this.maxChars = options.maxChars ?? 32 * 1024 * 1024;
  }

  /** Highest seq handed to the shipper. */
  get last(): number {
    return this.lastSeq;
  }

  /** Highest seq the server confirmed. */
  get acknowledged(): number {
    return this.acked;
  }

  push(line: LogLine): void {
    this.lastSeq = Math.max(this.lastSeq, line.seq);
    const at = Date.parse(line.at) || Date.now();
    const tail = this.entries[this.entries.length - 1];
    if (this.lines >= this.maxLines || this.chars + line.text.length > this.maxChars) {
      if (tail && isGap(tail) && tail.to === line.seq - 1) tail.to = line.seq;
      else this.entries.push({ from: line.seq, to: line.seq, at });
    } else {
      this.entries.push({ seq: BigInt(line.seq), stream: line.stream, atMs: BigInt(at), text: line.text });
      this.lines++;
      this.chars += line.text.length;
    }
    if (this.pendingCount() >= this.batchLines) this.kick();
    else if (!this.timer) this.timer = setTimeout(() => this.kick(), this.batchDelayMs);
  }

  private pendingCount(): number {
    let n = 0;
    for (const e of this.entries) {
      n += isGap(e) ? e.to - e.from + 1 : 1;
      if (n >= this.batchLines) break;
    }
    return n;
  }

  /** The next batch: up to `batchLines` lines after the acked seq, gaps expanded into placeholder lines. */
  private nextBatch(): ShippedLine[] {
    const out: ShippedLine[] = [];
    let chars = 0;
    for (const e of this.entries) {
      // A batch of very long lines stays well below the server's message limit.
      if (out.length >= this.batchLines || (out.length > 0 && chars >= BATCH_CHARS)) break;
      if (!isGap(e)) {
        if (Number(e.seq) > this.acked) {
          out.push(e);
          chars += e.text.length;
        }
        continue;
      }
      for (let seq = Math.max(e.from, this.acked + 1); seq <= e.to && out.length < this.batchLines; seq++)
        out.push({
          seq: BigInt(seq),
          stream: 'system',
          atMs: BigInt(e.at),
          text: seq === e.from ? DROPPED_NOTE : '',
        });
    }
    return out;
  }

  private drop(upTo: number): void {
    if (upTo <= this.acked) return;
    this.acked = upTo;
    while (this.entries.length > 0) {
      const e = this.entries[0];
      if (isGap(e)) {
        if (e.to > upTo) break;
      } else {
        if (Number(e.seq) > upTo) break;
        this.lines--;
        this.chars -= e.text.length;
      }
      this.entries.shift();
    }
  }

  private kick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.sending) return;
    this.sending = this.loop().finally(() => {
      this.sending = undefined;
      if (this.entries.length === 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const w of waiters) w();
      }
    });
  }

  private async loop(): Promise<void> {
    while (this.entries.length > 0 && !this.abandoned) {
      const batch = this.nextBatch();
      if (batch.length === 0) {
        this.drop(this.lastSeq);
        break;
      }
      const first = Number(batch[0].seq);
      const before = this.acked;
      try {
        const acked = await this.send(batch);
        if (acked < first - 1) {
          // The server lost lines it had confirmed (its store went back in time); they cannot be sent again,
          // so skip past them rather than retry forever.
          this.options.onError?.(new Error(`the control plane lost log lines ${acked + 1}..${first - 1}`));
          this.drop(Number(batch[batch.length - 1].seq));
        } else this.drop(acked);
        this.failures = this.acked > before ? 0 : this.failures + 1;
      } catch (err) {
        this.failures++;
        this.options.onError?.(err);
      }
      if (this.failures > 0)
        await new Promise((r) => setTimeout(r, Math.min(5_000, 100 * 2 ** Math.min(this.failures, 6))));
    }
  }

  /** Sends everything left and resolves once the server acknowledged the last line. */
  flush(): Promise<void> {
    if (this.entries.length === 0 && !this.sending) return Promise.resolve();
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.kick();
    });
  }

  /** Stops retrying (the agent is exiting); lines not yet acknowledged are lost. */
  abandon(): void {
    this.abandoned = true;
    this.entries.length = 0;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
