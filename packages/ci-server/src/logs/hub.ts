// In-process pub/sub of freshly stored log lines, per run. Ingestion publishes after its commit and never
// waits for a reader. A published batch is one array shared by every follower (a subscriber holds a
// reference, never a copy) and is encoded once, at publish, into the SSE bytes every follower's socket
// writes (sse-encoding.ts). Each subscriber has a queue bounded by lines and bytes; one that falls behind
// (a slow socket) is marked `overflowed` (its queue dropped) and catches up by its own cursor from the run's
// ring of recent batches — the same shared arrays and bytes, bounded by bytes — and only past the ring from
// the store, in pages that followers at the same cursor share (`read`), so a thousand slow followers do not
// turn into a thousand store replays or encodings. With many followers the hub wakes them a chunk per turn
// of the event loop, so fan-out never starves the ingestion that feeds it. A follower with a socket (the SSE
// route) needs no queue at all while it keeps up: it attaches to the run's live path (live.ts) and the hub
// writes the shared bytes to its socket itself, at the run's beat, in one pass over those followers.

import { logTrace, logTraceOn } from '../replicas/log-trace.js';
import {
  DEFAULT_BEAT_MS,
  type LiveFollower,
  LiveRun,
  type LiveSink,
  type RunCheck,
  type SharedLines,
} from './live.js';
import { chainAfter, Ring } from './ring.js';
import { SharedTimers } from './shared-timers.js';
import { type LogBatch, SseEncoder } from './sse-encoding.js';
import { LogSubscription } from './subscription.js';
import type { StoredLogLine } from './types.js';

export { chainAfter } from './ring.js';
export type { LogBatch } from './sse-encoding.js';
export { LogSubscription, type WakeReason } from './subscription.js';

/** Lines a subscriber may hold before it must fall back to the ring (references: a few bytes per batch). */
export const DEFAULT_SUBSCRIBER_CAPACITY = 2_000;

/** Encoded bytes a subscriber may have pending before it must catch up by its cursor instead. */
export const DEFAULT_SUBSCRIBER_BYTES = 1024 * 1024;

/** Lines of recent batches a followed run keeps for followers that fell behind. */
export const DEFAULT_RING_LINES = 50_000;

/** Encoded bytes of recent batches a followed run keeps (about 60,000 lines of 100 characters). */
export const DEFAULT_RING_BYTES = 16 * 1024 * 1024;

/** Followers woken per turn of the event loop when a batch is published. */
export const DEFAULT_FANOUT_CHUNK = 100;

export interface LogHubOptions {
  /** Lines of recent batches a followed run keeps (default 50,000). */
  ringLines?: number;
  /** Encoded bytes of recent batches a followed run keeps (default 16 MiB). */
  ringBytes?: number;
  /** Encodes each batch once for every follower (injectable to count or change the encoding). */
  encoder?: SseEncoder;
  /** Followers woken per turn of the event loop when a batch is published (the rest after ingestion ran). */
  fanoutChunk?: number;
  /** Default byte bound of a subscription's queue (DEFAULT_SUBSCRIBER_BYTES). */
  subscriberBytes?: number;
  /** How long a store read answers followers asking the same while the run did not change (100 ms). */
  sharedReadMs?: number;
  /** Least time between two writes of live lines to a follower the hub writes itself (50 ms). */
  beatMs?: number;
}

/** What the hub reads from the store when followers catch up (LogStore's readRunLogs). */
export interface RunLogReader {
  readRunLogs(runId: string, afterCursor: number, limit: number): Promise<StoredLogLine[]>;
}

/** One followed run: its followers, its ring, and the store reads its followers share. */
interface FollowedRun {
  subs: Set<LogSubscription>;
  /** The followers given batches through their queue (not attached to the live path). */
  queued: Set<LogSubscription>;
  /** The followers the hub writes itself, and their beat. */
  live: LiveRun;
  ring: Ring;
  /** Batches waiting to be handed to followers in chunks (while a chunked hand-out is under way). */
  queue: [LogBatch, number][];
  handingOut: boolean;
  /** Store reads in flight or recent, by what they read, while the run did not change: one for all. */
  reads: Map<string, { at: number; answer: Promise<unknown> }>;
}

/** Store reads a followed run keeps for its followers before it drops the oldest. */
const MAX_SHARED_READS = 64;
/**
 * How long a store read answers other followers asking the same. Followers woken together (one
 * notification, the run's end) ask within a few milliseconds; a periodic check, which exists for lines no
 * notification announced, must not be answered by an old read, so reads do not live longer than this.
 */
const DEFAULT_SHARED_READ_MS = 100;

export class LogHub {
  private readonly runs = new Map<string, FollowedRun>();
  private readonly observers: ((runId: string) => void)[] = [];
  private readonly ringLines: number;
  private readonly ringBytes: number;
  private readonly fanoutChunk: number;
  private readonly subscriberBytes: number;
  private readonly sharedReadMs: number;
  private readonly beatMs: number;
  readonly encoder: SseEncoder;
  /** The timers followers wait with: one per period for all of them, not one per follower and wait. */
  private readonly timers = new SharedTimers();
  /** Store reads made for followers (each shared by every follower asking the same while nothing changed). */
  storeReads = 0;

  constructor(options: number | LogHubOptions = {}) {
    const o = typeof options === 'number' ? { ringLines: options } : options;
    this.ringLines = o.ringLines ?? DEFAULT_RING_LINES;
    this.ringBytes = o.ringBytes ?? DEFAULT_RING_BYTES;
    this.encoder = o.encoder ?? new SseEncoder();
    this.fanoutChunk = o.fanoutChunk ?? DEFAULT_FANOUT_CHUNK;
    this.subscriberBytes = o.subscriberBytes ?? DEFAULT_SUBSCRIBER_BYTES;
    this.sharedReadMs = o.sharedReadMs ?? DEFAULT_SHARED_READ_MS;
    this.beatMs = o.beatMs ?? DEFAULT_BEAT_MS;
  }

  /** Called after every publish (replicas/ announces stored lines to the other replicas). */
  onPublish(observer: (runId: string) => void): void {
    this.observers.push(observer);
  }

  /** Follows the lines published for `runId` from now on. Close it when done. */
  subscribe(
    runId: string,
    capacity = DEFAULT_SUBSCRIBER_CAPACITY,
    capacityBytes = this.subscriberBytes,
  ): LogSubscription {
    const sub = new LogSubscription(
      runId,
      capacity,
      capacityBytes,
      (s) => {
        const run = this.runs.get(runId);
        run?.subs.delete(s);
        run?.queued.delete(s);
        if (s.live) run?.live.detach(s.live);
        // Nobody follows the run any more: its recent lines are the store's business again.
        if (run && run.subs.size === 0) this.runs.delete(runId);
      },
      this.timers,
    );
    let run = this.runs.get(runId);
    if (!run) {
      const created: FollowedRun = {
        subs: new Set(),
        queued: new Set(),
        live: new LiveRun({
          encoder: this.encoder,
          beatMs: this.beatMs,
          chunk: this.fanoutChunk,
          recent: (cursor) => chainAfter(created.ring.batches, cursor),
          wake: () => this.wake(runId),
        }),
        ring: new Ring(),
        queue: [],
        handingOut: false,
        reads: new Map(),
      };
      run = created;
      this.runs.set(runId, run);
    }
    run.subs.add(sub);
    run.queued.add(sub);
    return sub;
  }

  /**
   * From now on the hub writes `sub`'s live lines after `cursor` to `sink` itself, at the run's beat, until
   * it lets go of the follower (the follower's wait then ends with `data`: catch up by the cursor `detach`
   * answers) or the follower detaches. Such a follower keeps no queue, and no timer: `check` (shared by
   * every follower of the run) runs every `checkMs` while any is attached and wakes them all when it finds
   * the run over or lines past the head in the store.
   */
  attach(sub: LogSubscription, cursor: number, sink: LiveSink, check?: RunCheck, checkMs?: number): void {
    const run = this.runs.get(sub.runId);
    if (!run || sub.isClosed) return;
    run.queued.delete(sub);
    // Whatever its queue or a let-go flagged is behind it: it caught up to `cursor`.
    sub.take();
    let f = sub.live;
    if (f === undefined) {
      const follower: LiveFollower = { sink, cursor, attached: false, letGo: () => sub.letGo() };
      f = follower;
      sub.live = f;
    }
    f.sink = sink;
    f.cursor = cursor;
    run.live.attach(f, check, checkMs);
  }

  /**
   * The ring's lines of the run after `cursor` as one write shared by every follower catching up from
   * there (null: none; undefined: the ring cannot prove it holds every one).
   */
  recentLines(runId: string, cursor: number): SharedLines | null | undefined {
    const run = this.runs.get(runId);
    return run === undefined || run.ring.batches.length === 0 ? undefined : run.live.ringLines(cursor);
  }

  /** Takes the follower off the live path; answers its cursor (how far the hub wrote it). */
  detach(sub: LogSubscription): number | undefined {
    const f = sub.live;
    if (f === undefined) return undefined;
    this.runs.get(sub.runId)?.live.detach(f);
    return f.cursor;
  }

  /**
   * Lines of one run just committed, in cursor order. Only followed runs keep them: encoded once (the
   * encoder caches the bytes by the array), in the ring, and handed to each follower by reference.
   */
  publish(runId: string, lines: readonly StoredLogLine[]): void {
    if (lines.length === 0) return;
    for (const observer of this.observers) observer(runId);
    const run = this.runs.get(runId);
    if (!run) return;
    // Shared store reads stay valid: a page read before this commit is a true prefix of what follows its
    // cursor (cursors follow commit order), and these lines reach every follower through its queue.
    const bytes = this.encoder.byteLength(lines);
    run.ring.add(lines, bytes, this.ringLines, this.ringBytes);
    run.live.publish(lines);
    if (run.queued.size === 0) return;
    if (!run.handingOut && run.queued.size <= this.fanoutChunk) {
      for (const sub of run.queued) sub.push(lines, bytes);
      return;
    }
    // Many followers: wake them a chunk per turn of the event loop, so the ingestion that published (and
    // the next batch's I/O) runs between chunks instead of after a thousand wake-ups. Batches published
    // meanwhile queue behind, so every follower still gets them in publish order.
    run.queue.push([lines, bytes]);
    if (!run.handingOut) {
      run.handingOut = true;
      setImmediate(() => this.handOut(run));
    }
  }

  private handOut(run: FollowedRun): void {
    const batches = run.queue;
    run.queue = [];
    // Followers that subscribe after this point were not following when these were published: their
    // first replay reads them from the store.
    const subs = [...run.queued];
    let i = 0;
    const step = () => {
      const end = Math.min(i + this.fanoutChunk, subs.length);
      for (; i < end; i++) for (const [batch, bytes] of batches) subs[i].push(batch, bytes);
      if (i < subs.length) setImmediate(step);
      else if (run.queue.length > 0) setImmediate(() => this.handOut(run));
      else run.handingOut = false;
    };
    step();
  }

  /**
   * Resolves at the next beat of the hub's shared `ms` timer (within `ms`): how a follower waits out the
   * rest of its coalescing period, on the same beat as every other follower, without a timer of its own.
   */
  tick(ms: number): Promise<void> {
    return new Promise((resolve) => this.timers.add(ms, resolve));
  }

  /**
   * The run's lines after `cursor` from the ring, as shared batches without a gap (the first one cut when
   * it starts at or before the cursor), or undefined when the ring cannot prove it holds every one of them
   * (it lost older batches, or batches of concurrent commits were published out of order).
   */
  recent(runId: string, cursor: number): LogBatch[] | undefined {
    const ring = this.runs.get(runId)?.ring;
    if (!ring || ring.batches.length === 0) return undefined;
    return chainAfter(ring.batches, cursor);
  }

  /**
   * A page of the run's stored lines after `after`, read once for every follower asking for the same page
   * (so one notification from another replica costs one read, not one per follower, and the page is one
   * array, encoded once).
   */
  read(store: RunLogReader, runId: string, after: number, limit: number): Promise<StoredLogLine[]> {
    return this.shared(runId, `page ${after}/${limit}`, () => {
      this.storeReads++;
      if (!logTraceOn) return store.readRunLogs(runId, after, limit);
      logTrace('read', runId, after);
      return store.readRunLogs(runId, after, limit).then((page) => {
        if (page.length > 0) logTrace('page', runId, after, page[page.length - 1].cursor);
        return page;
      });
    });
  }

  /**
   * `fetch()` once for every follower of the run asking under the same key (a store page, whether the run
   * is over) within `sharedReadMs`: an announcement from another replica or a wake (the run ended) forgets
   * every answer, so none is older than what woke the followers that ask, and the periodic checks of a
   * thousand followers cost a few reads a second, not a thousand.
   */
  shared<T>(runId: string, key: string, fetch: () => Promise<T>): Promise<T> {
    const run = this.runs.get(runId);
    if (!run) return fetch();
    const known = run.reads.get(key);
    const now = Date.now();
    if (known && now - known.at < this.sharedReadMs) return known.answer as Promise<T>;
    const answer = fetch();
    run.reads.delete(key);
    if (run.reads.size >= MAX_SHARED_READS) run.reads.delete(run.reads.keys().next().value as string);
    const entry = { at: now, answer };
    run.reads.set(key, entry);
    // A failed read is not kept: the next follower asking tries again.
    answer.catch(() => {
      if (run.reads.get(key) === entry) run.reads.delete(key);
    });
    return answer;
  }

  /** Another replica stored lines of `runId` (undefined: of any run, after missed notifications). */
  storedElsewhere(runId?: string): void {
    const runs = runId === undefined ? [...this.runs.values()] : [this.runs.get(runId)];
    for (const run of runs) {
      if (!run) continue;
      // Reads made before the announcement may miss the lines: the followers it wakes read anew (once).
      run.reads.clear();
      for (const sub of run.subs) sub.stored();
    }
  }

  /** Wakes every follower of `runId` (e.g. the run reached a terminal state). */
  wake(runId: string): void {
    const run = this.runs.get(runId);
    if (!run) return;
    run.reads.clear();
    for (const sub of run.subs) sub.wake();
  }

  subscriberCount(runId?: string): number {
    if (runId !== undefined) return this.runs.get(runId)?.subs.size ?? 0;
    let n = 0;
    for (const run of this.runs.values()) n += run.subs.size;
    return n;
  }

  /** The run's live path: followers attached, passes (beats), writes made (one per follower and beat), followers let go. */
  liveStats(runId: string): { attached: number; beats: number; writes: number; letGo: number } {
    const live = this.runs.get(runId)?.live;
    return {
      attached: live?.size ?? 0,
      beats: live?.beats ?? 0,
      writes: live?.writes ?? 0,
      letGo: live?.letGo ?? 0,
    };
  }

  /** Each follower's queue of the run: what it holds (references to shared batches) and its overflows. */
  subscriptions(runId: string): { pendingLines: number; pendingBytes: number; overflows: number }[] {
    return [...(this.runs.get(runId)?.subs ?? [])].map((s) => s.held);
  }

  /** What a followed run holds in memory for its followers (the ring; subscriptions hold references). */
  ringSize(runId: string): { batches: number; lines: number; bytes: number } {
    const ring = this.runs.get(runId)?.ring;
    return { batches: ring?.batches.length ?? 0, lines: ring?.lines ?? 0, bytes: ring?.bytes ?? 0 };
  }
}
