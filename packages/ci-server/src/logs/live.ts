// The hub's live write path: the followers of a run that keep up are written by the hub itself, at the run's
// beat, in one pass over them — no generator, promise or timer per follower and wake. A publish marks the run
// dirty and arms its beat: at once after a quiet spell (a line after a pause goes out without waiting), else
// `beatMs` after the last pass, so each follower gets at most one write per beat however many batches came.
// At the beat the lines after each follower's cursor are found once per distinct cursor (almost every
// follower shares one) and made into one shared write: the plain bytes of the beat's batches joined once, or
// their shared gzip chunks joined once with one combined CRC, so a follower costs one socket write and, gzip,
// one CRC combination. A follower whose socket is over its high-water mark after a write stays attached but
// is skipped until it drains, then written what came meanwhile from the ring (joined once per cursor). A
// follower whose cursor the beat's batches and the ring cannot continue without a gap (another replica's
// lines, batches published out of order, lines older than the ring) is let go: its own loop (follow.ts)
// catches up by its cursor from the ring then the store, and attaches again.
import { crc32CombineShifted, crc32Shift } from './crc32.js';
import { chainAfter } from './ring.js';
import type { LogBatch, SseEncoder } from './sse-encoding.js';
import type { GzipChunk } from './sse-gzip.js';

/** Least time between two writes of live lines to one follower (and a line after a quiet spell: at once). */
export const DEFAULT_BEAT_MS = 50;

/** Where the hub writes a follower's live lines: its SSE response (http/logs-stream.ts). */
export interface LiveSink {
  /** Writes the lines in one write of shared bytes; false when the socket is over its high-water mark. */
  write(lines: SharedLines): boolean;
  /** Resolves once the socket takes more (it drained, or closed). */
  ready(): Promise<void>;
}

/** The lines a beat writes to every follower at one cursor: their bytes joined once for all of them. */
export class SharedLines {
  private joined: Buffer | undefined;
  private chunk: GzipChunk | undefined;

  constructor(
    readonly batches: readonly LogBatch[],
    private readonly encoder: SseEncoder,
  ) {}

  /** The cursor of the last line. */
  get last(): number {
    const b = this.batches[this.batches.length - 1];
    return b[b.length - 1].cursor;
  }

  /** The SSE text of every batch, one Buffer (a batch's own when there is one). */
  plain(): Buffer {
    this.joined ??=
      this.batches.length === 1
        ? this.encoder.encode(this.batches[0])
        : Buffer.concat(this.batches.map((b) => this.encoder.encode(b)));
    return this.joined;
  }

  /** The batches' shared gzip chunks as one chunk: their deflated bytes joined, their CRCs combined. */
  gzip(): GzipChunk {
    if (this.chunk === undefined) {
      const chunks = this.batches.map((b) => this.encoder.gzip(b));
      if (chunks.length === 1) this.chunk = chunks[0];
      else {
        let crc = 0;
        let length = 0;
        for (const c of chunks) {
          crc = crc32CombineShifted(crc, c.crc, c.shift);
          length += c.length;
        }
        const deflated = Buffer.concat(chunks.map((c) => c.deflated));
        this.chunk = { deflated, crc, length, shift: crc32Shift(length) };
      }
    }
    return this.chunk;
  }
}

/** One follower on the live path: where to write, and how far it has been written. */
export interface LiveFollower {
  sink: LiveSink;
  cursor: number;
  attached: boolean;
  /** Its socket is over its high-water mark: skipped by the passes until it drains (then written). */
  blocked?: boolean;
  /** Ends the follower's wait: the hub let go of it (it catches up by its cursor, then attaches again). */
  letGo: () => void;
}

export interface LiveRunOptions {
  encoder: SseEncoder;
  /** Least time between two passes (two writes to one follower). */
  beatMs: number;
  /** Followers written per turn of the event loop (the rest after ingestion ran). */
  chunk: number;
  /** The run's ring: the batches after a cursor without a gap, or undefined (hub.recent). */
  recent: (cursor: number) => LogBatch[] | undefined;
  /** Wakes every follower of the run (the run's check found it over, or lines past the head). */
  wake: () => void;
}

/**
 * The run's periodic check on behalf of its attached followers (follow.ts makes it): whether the run is
 * over or the store holds lines past `after` that no publish or notification brought; true wakes them all.
 */
export type RunCheck = (after: number) => Promise<boolean>;

/** Ring joins kept at once (followers catching up cluster at a few cursors). */
const MAX_RING_JOINS = 16;

const last = (chain: readonly LogBatch[]) => {
  const b = chain[chain.length - 1];
  return b[b.length - 1].cursor;
};

/** The live followers of one run, the batches published since its last beat, and the beat. */
export class LiveRun {
  private readonly followers = new Set<LiveFollower>();
  private pending: LogBatch[] = [];
  /** The highest cursor published: a follower below it has lines to be written. */
  private head = 0;
  private scheduled = false;
  private passing = false;
  private again = false;
  private lastPass = Number.NEGATIVE_INFINITY;
  /** Publishes so far: what the joined ring writes below were made for. */
  private published = 0;
  /** The ring's lines after a cursor, joined once for every follower catching up from there. */
  private readonly fromRing = new Map<number, SharedLines | null>();
  private fromRingAt = 0;
  /** One check for all attached followers, every `checkMs`, instead of a periodic wake of each. */
  private check: RunCheck | undefined;
  private checkMs = 1_000;
  private checkTimer: NodeJS.Timeout | undefined;
  private checking = false;
  /** Writes made (one per follower and beat at most), and followers let go to catch up. */
  writes = 0;
  letGo = 0;
  /** Passes made over the followers. */
  beats = 0;

  constructor(private readonly o: LiveRunOptions) {}

  get size(): number {
    return this.followers.size;
  }

  attach(f: LiveFollower, check?: RunCheck, checkMs?: number): void {
    f.attached = true;
    this.followers.add(f);
    if (check) {
      this.check = check;
      this.checkMs = checkMs ?? this.checkMs;
    }
    this.armCheck();
    // Lines published while it caught up: the next beat writes them from the ring.
    if (this.head > f.cursor) this.request();
  }

  detach(f: LiveFollower): void {
    f.attached = false;
    this.followers.delete(f);
    if (this.followers.size === 0 && this.checkTimer !== undefined) {
      clearTimeout(this.checkTimer);
      this.checkTimer = undefined;
    }
  }

  private armCheck(): void {
    if (
      this.checkTimer !== undefined ||
      this.checking ||
      this.check === undefined ||
      this.followers.size === 0
    )
      return;
    this.checkTimer = setTimeout(() => void this.runCheck(), this.checkMs);
  }

  private async runCheck(): Promise<void> {
    this.checkTimer = undefined;
    this.checking = true;
    // A follower below the head gets the ring's lines at the beat (or is let go at a gap); past the head,
    // only the store knows: the least cursor any follower may still miss there.
    let after = Number.POSITIVE_INFINITY;
    for (const f of this.followers) after = Math.min(after, Math.max(f.cursor, this.head));
    let wake = true;
    try {
      wake = this.followers.size > 0 && (await (this.check as RunCheck)(after));
    } catch {
      // The store cannot answer: the followers' own reads say so (an `error` event, then a reconnect).
    }
    this.checking = false;
    if (wake) this.o.wake();
    this.armCheck();
  }

  publish(batch: LogBatch): void {
    const end = batch[batch.length - 1].cursor;
    if (end > this.head) this.head = end;
    this.published++;
    // Nobody attached: a follower attaching later finds these in the ring.
    if (this.followers.size === 0) return;
    this.pending.push(batch);
    this.request();
  }

  /**
   * The ring's lines after `cursor` as one shared write: null when there are none, undefined when the ring
   * cannot prove it holds every one. Followers catching up from one cursor share the join (a few cursors
   * are kept, until the next publish).
   */
  ringLines(cursor: number): SharedLines | null | undefined {
    if (cursor >= this.head) return null;
    if (this.fromRingAt !== this.published) {
      this.fromRing.clear();
      this.fromRingAt = this.published;
    }
    let lines = this.fromRing.get(cursor);
    if (lines === undefined) {
      const chain = this.o.recent(cursor);
      if (chain === undefined) return undefined;
      lines = chain.length > 0 ? new SharedLines(chain, this.o.encoder) : null;
      if (this.fromRing.size >= MAX_RING_JOINS)
        this.fromRing.delete(this.fromRing.keys().next().value as number);
      this.fromRing.set(cursor, lines);
    }
    return lines;
  }

  /** Arms the beat: at once after a quiet spell, else `beatMs` after the last pass. */
  private request(): void {
    if (this.passing) {
      this.again = true;
      return;
    }
    if (this.scheduled) return;
    this.scheduled = true;
    const due = this.lastPass + this.o.beatMs - Date.now();
    // setImmediate even when due: batches of the same turn (concurrent commits) join one write.
    if (due <= 0) setImmediate(() => this.beat());
    else setTimeout(() => this.beat(), due);
  }

  private beat(): void {
    this.scheduled = false;
    this.passing = true;
    this.beats++;
    this.lastPass = Date.now();
    const batches = this.pending;
    this.pending = [];
    const head = this.head;
    const list = [...this.followers];
    // Followers at the same cursor get the same lines: found and joined once per cursor and beat.
    const byCursor = new Map<number, SharedLines | null>();
    const linesAfter = (cursor: number): SharedLines | null => {
      let lines = byCursor.get(cursor);
      if (lines === undefined) {
        const chain = chainAfter(batches, cursor);
        if (chain !== undefined && chain.length > 0 && last(chain) >= head)
          lines = new SharedLines(chain, this.o.encoder);
        else {
          // Behind the beat's batches (it attached after a catch-up): the ring's, joined once.
          const ring = this.ringLines(cursor);
          lines = ring && ring.last >= head ? ring : null;
        }
        byCursor.set(cursor, lines);
      }
      return lines;
    };
    let i = 0;
    const step = () => {
      const end = Math.min(i + this.o.chunk, list.length);
      for (; i < end; i++) {
        const f = list[i];
        if (!f.attached || f.blocked || f.cursor >= head) continue;
        const lines = linesAfter(f.cursor);
        if (lines === null) {
          // A gap the ring cannot fill: the follower reads on from the store by its cursor.
          this.release(f);
          continue;
        }
        // The write is taken (buffered) even when it says the socket is full: the cursor moves on.
        f.cursor = lines.last;
        this.writes++;
        let taken: boolean;
        try {
          taken = f.sink.write(lines);
        } catch {
          // A socket that broke under the write: its follower's loop finds out (and the pass goes on).
          this.release(f);
          continue;
        }
        if (!taken) this.block(f);
      }
      if (i < list.length) {
        setImmediate(step);
        return;
      }
      this.passing = false;
      if (this.again || this.pending.length > 0) {
        this.again = false;
        this.request();
      }
    };
    step();
  }

  /**
   * The socket holds the write but is over its high-water mark: the follower stays attached, is skipped
   * until the socket drains (one `drain` listener, no loop step), and then written what came meanwhile —
   * from the ring, joined once per cursor — or let go if the ring no longer reaches back to it.
   */
  private block(f: LiveFollower): void {
    f.blocked = true;
    f.sink.ready().then(
      () => {
        f.blocked = false;
        if (f.attached) this.request();
      },
      () => {
        f.blocked = false;
        if (f.attached) this.release(f);
      },
    );
  }

  private release(f: LiveFollower): void {
    this.detach(f);
    this.letGo++;
    f.letGo();
  }
}
