// Ships one job run's log lines to the control plane, promptly when they are sparse and in batches only
// under volume (Nagle's rule, not a fixed delay): a line written after a quiet spell leaves on the next turn
// of the event loop (with whatever else that chunk of output held), so a reader sees it within a round trip;
// while lines keep coming, a new round of sends starts at most once per `lingerMs` (25 ms) unless a full
// batch (2,000 lines) is waiting, so a busy job costs the server tens of messages a second, not one per line.
// Those rounds start on the ticks of one clock shared by every shipper of the process (multiples of
// `lingerMs` of Date.now()), so the busy jobs of an agent send together: their batches reach the control
// plane in one turn of its event loop and are written in one statement and announced in one notification
// (ci-server logs/run-inserts.ts), instead of each job's rounds drifting on its own phase.
// A round sends up to 4 consecutive batches at once. The server answers with the highest seq it has stored;
// lines up to it are dropped, the rest are sent again (after a failure, with backoff), so a server restart
// loses nothing the agent still holds. A batch that overtook its predecessor is refused up to the gap and
// simply resent in the next round.
//
// Back-pressure, not loss: past `highWaterLines` buffered lines `pressure()` answers a promise, and the job's
// output streams are paused until the buffer is below half of it (executor/log.ts), so a job printing faster
// than the control plane stores blocks on its pipe instead of losing lines; the server's per-job cap is the
// only limit on a log. The hard bound (`maxLines`) is a last resort for the agent's own notes, which are
// not paused: past it texts are dropped, their seqs still sent as empty lines after one saying so, because
// the server stores a job's lines only without gaps.
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
  /**
   * While lines keep coming, rounds of sends start at most once per this period, on its ticks (multiples of
   * it on the process's clock, shared by every shipper; default 25 ms); a line written once the tick after
   * the last round has passed leaves at once. The most a line waits for company.
   */
  lingerMs?: number;
  /** Batches sent at once (default 4). */
  inFlight?: number;
  /** Buffered lines above which the job's output is paused (default 20,000). */
  highWaterLines?: number;
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
  /** The start of the next round: an immediate after a quiet spell, a timeout for the rest of a linger. */
  private timer?: { cancel(): void };
  private sending?: Promise<void>;
  /** When the last round of sends started (Date.now()). */
  private lastRound = Number.NEGATIVE_INFINITY;
  /** Ends the loop's linger early (a full batch is waiting, a flush, abandon). */
  private cutLinger?: () => void;
  /** A flush is waiting: send what there is without lingering. */
  private urgent = false;
  private failures = 0;
  private abandoned = false;
  private idleWaiters: (() => void)[] = [];
  private readonly batchLines: number;
  private readonly lingerMs: number;
  private readonly maxLines: number;
  private readonly maxChars: number;
  private readonly inFlight: number;
  private readonly highWater: number;
  private pressureWaiters: (() => void)[] = [];
  private pressurePromise?: Promise<void>;

  constructor(
    private readonly send: SendBatch,
    private readonly options: ShipperOptions = {},
  ) {
    this.batchLines = options.batchLines ?? 2_000;
    this.lingerMs = Math.max(1, options.lingerMs ?? 25);
    this.maxLines = options.maxLines ?? 100_000;
    this.maxChars = options.maxChars ?? 32 * 1024 * 1024;
    this.inFlight = Math.max(1, options.inFlight ?? 4);
    this.highWater = options.highWaterLines ?? 20_000;
  }

  /**
   * A promise while the buffer is above its high-water mark (the job's output should pause until it
   * settles), else undefined.
   */
  pressure(): Promise<void> | undefined {
    if (this.abandoned) return undefined;
    if (this.lines < this.highWater && this.chars < this.maxChars / 2) return undefined;
    if (!this.pressurePromise)
      this.pressurePromise = new Promise((resolve) => this.pressureWaiters.push(resolve));
    return this.pressurePromise;
  }

  private relieve(force = false): void {
    if (!this.pressurePromise) return;
    if (!force && (this.lines > this.highWater / 2 || this.chars > this.maxChars / 4)) return;
    const waiters = this.pressureWaiters;
    this.pressureWaiters = [];
    this.pressurePromise = undefined;
    for (const w of waiters) w();
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
    if (this.sending) {
      // The loop takes it after the round in flight; a full batch ends its linger.
      if (this.cutLinger && this.pendingCount() >= this.batchLines) this.cutLinger();
      return;
    }
    if (this.pendingCount() >= this.batchLines) this.kick();
    else if (!this.timer) {
      const left = this.nextTick() - Date.now();
      if (left <= 0) {
        // After a quiet spell: the next turn of the event loop (the rest of this chunk of output comes
        // along), by setImmediate rather than a timer, which would add at least a millisecond.
        const immediate = setImmediate(() => this.kick());
        this.timer = { cancel: () => clearImmediate(immediate) };
      } else {
        // A round began since the last tick: under volume, this line waits for company until the next.
        const timeout = setTimeout(() => this.kick(), left);
        this.timer = { cancel: () => clearTimeout(timeout) };
      }
    }
  }

  /**
   * When the next round may start: the first tick of the shared clock after the last round began. Every
   * shipper of the process uses the same ticks, so the rounds of busy jobs start in the same timer turn.
   */
  private nextTick(): number {
    return (Math.floor(this.lastRound / this.lingerMs) + 1) * this.lingerMs;
  }

  private pendingCount(): number {
    let n = 0;
    for (const e of this.entries) {
      n += isGap(e) ? e.to - e.from + 1 : 1;
      if (n >= this.batchLines) break;
    }
    return n;
  }

  /** The next batch: up to `batchLines` lines after seq `after`, gaps expanded into placeholder lines. */
  private nextBatch(after: number): ShippedLine[] {
    const out: ShippedLine[] = [];
    let chars = 0;
    for (const e of this.entries) {
      // A batch of very long lines stays well below the server's message limit.
      if (out.length >= this.batchLines || (out.length > 0 && chars >= BATCH_CHARS)) break;
      if (!isGap(e)) {
        if (Number(e.seq) > after) {
          out.push(e);
          chars += e.text.length;
        }
        continue;
      }
      for (let seq = Math.max(e.from, after + 1); seq <= e.to && out.length < this.batchLines; seq++)
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
    this.relieve();
  }

  private kick(): void {
    this.timer?.cancel();
    this.timer = undefined;
    if (this.sending) return;
    this.sending = this.loop().finally(() => {
      this.sending = undefined;
      if (this.entries.length === 0) {
        this.urgent = false;
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const w of waiters) w();
      }
    });
  }

  /** Waits until `ms` passed or `cutLinger` is called. */
  private linger(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.cutLinger = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.cutLinger = done;
    });
  }

  private async loop(): Promise<void> {
    while (this.entries.length > 0 && !this.abandoned) {
      // Lines came while the last round was in flight: under volume, let them gather into fuller batches
      // (until the next tick after that round began), unless a full batch is waiting or a flush asks.
      const left = this.nextTick() - Date.now();
      if (left > 0 && !this.urgent && this.pendingCount() < this.batchLines) {
        await this.linger(left);
        if (this.abandoned) break;
      }
      this.lastRound = Date.now();
      // A window of consecutive batches, sent at once; the next round starts after the highest ack.
      const window: ShippedLine[][] = [];
      let after = this.acked;
      while (window.length < (this.failures > 0 ? 1 : this.inFlight)) {
        const batch = this.nextBatch(after);
        if (batch.length === 0) break;
        window.push(batch);
        after = Number(batch[batch.length - 1].seq);
      }
      if (window.length === 0) {
        this.drop(this.lastSeq);
        break;
      }
      const first = Number(window[0][0].seq);
      const before = this.acked;
      const answers = await Promise.allSettled(window.map((batch) => this.send(batch)));
      let acked = -1;
      for (const a of answers) {
        if (a.status === 'fulfilled') acked = Math.max(acked, a.value);
        else this.options.onError?.(a.reason);
      }
      if (acked >= 0) {
        if (acked < first - 1) {
          // The server lost lines it had confirmed (its store went back in time); they cannot be sent again,
          // so skip past them rather than retry forever.
          this.options.onError?.(new Error(`the control plane lost log lines ${acked + 1}..${first - 1}`));
          this.drop(Number(window[0][window[0].length - 1].seq));
        } else this.drop(acked);
      }
      this.failures = this.acked > before ? 0 : this.failures + 1;
      if (this.failures > 0)
        await new Promise((r) => setTimeout(r, Math.min(5_000, 100 * 2 ** Math.min(this.failures, 6))));
    }
  }

  /** Sends everything left and resolves once the server acknowledged the last line. */
  flush(): Promise<void> {
    if (this.entries.length === 0 && !this.sending) return Promise.resolve();
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.urgent = true;
      this.cutLinger?.();
      this.kick();
    });
  }

  /** Stops retrying (the agent is exiting); lines not yet acknowledged are lost. */
  abandon(): void {
    this.abandoned = true;
    this.cutLinger?.();
    this.entries.length = 0;
    this.lines = 0;
    this.chars = 0;
    this.relieve(true);
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
