// What the agent's couriers share (log-courier.ts: PushLogBatches; report-courier.ts: the session stream): the
// items handed over in one turn of the event loop go on the next turn (`setImmediate`, no timer, so nothing
// waits) in one batched call, split only where a call would grow past its bounds, and each item's sender gets
// that item's own answer. One call instead of one per item: the control plane pays its per-call cost (HTTP/2
// stream, envelope, handler) once per turn of the agent, and so does the agent.
// A control plane that predates the batched call answers UNIMPLEMENTED without taking anything: the items
// then go one by one with the single call, as agents did before, for the rest of that session (a new session,
// after a reconnect, may be with an upgraded server: it tries the batched call again).
import { Code, ConnectError } from '@connectrpc/connect';

/** One item's answer in a batched call: its value, or the code and message of its refusal (code ≠ 0). */
export interface ItemResult<R> {
  code: number;
  message: string;
  value?: R;
}

export interface TurnBatcherCalls<T, R> {
  /** The batched call: one result per item, in order. */
  many(items: T[]): Promise<ItemResult<R>[]>;
  /** The single call every control plane serves. */
  one(item: T): Promise<R>;
  /** Which session the calls go to: the single call is used for the session that did not know `many`. */
  session?(): string | undefined;
  /** Items of one call at most. */
  maxItems: number;
  /** Bytes of one call at most, as `bytesOf` counts them (no bound when absent). */
  maxBytes?: number;
  bytesOf?(item: T): number;
  /**
   * True when a refusal (of the whole call, or of one item) is worth the single call's own retrying: the
   * item is then sent alone with `one`. Otherwise the sender gets the refusal.
   */
  alone?(err: ConnectError): boolean;
}

interface Waiting<T, R> {
  item: T;
  bytes: number;
  resolve(value: R): void;
  reject(err: unknown): void;
}

export class TurnBatcher<T, R> {
  private waiting: Waiting<T, R>[] = [];
  private scheduled = false;
  /** The session whose server answered UNIMPLEMENTED to the batched call (its items go one by one). */
  private legacySession: string | undefined | null = null;
  /** Calls made: batched, single; items carried. */
  readonly stats = { many: 0, one: 0, items: 0 };

  constructor(private readonly calls: TurnBatcherCalls<T, R>) {}

  /** Sends one item with the others of this turn; resolves with its own answer. */
  send(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, bytes: this.calls.bytesOf?.(item) ?? 0, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // The next turn, not a timer: every item handed over in this turn joins the call.
      setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    this.scheduled = false;
    const all = this.waiting;
    this.waiting = [];
    this.stats.items += all.length;
    if (this.legacy()) {
      for (const w of all) this.sendOne(w);
      return;
    }
    const maxBytes = this.calls.maxBytes ?? Number.POSITIVE_INFINITY;
    let group: Waiting<T, R>[] = [];
    let bytes = 0;
    for (const w of all) {
      if (group.length > 0 && (group.length >= this.calls.maxItems || bytes + w.bytes > maxBytes)) {
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

  private sendOne(w: Waiting<T, R>): void {
    this.stats.one++;
    this.calls.one(w.item).then(w.resolve, w.reject);
  }

  /** The refusal `err` for `w`: sent alone when the single call may still get it through, else given back. */
  private refused(w: Waiting<T, R>, err: unknown): void {
    if (this.calls.alone?.(ConnectError.from(err))) this.sendOne(w);
    else w.reject(err);
  }

  private async sendMany(group: Waiting<T, R>[]): Promise<void> {
    const session = this.calls.session?.();
    this.stats.many++;
    let results: ItemResult<R>[];
    try {
      results = await this.calls.many(group.map((w) => w.item));
    } catch (err) {
      if (ConnectError.from(err).code === Code.Unimplemented) {
        // A control plane from before the batched call (it took nothing): the single call for each item,
        // from now on for this session.
        this.legacySession = session;
        for (const w of group) this.sendOne(w);
        return;
      }
      for (const w of group) this.refused(w, err);
      return;
    }
    for (const [i, w] of group.entries()) {
      const r = results[i];
      if (!r)
        this.refused(w, new ConnectError('the control plane did not answer for this item', Code.Internal));
      else if (r.code === 0) w.resolve(r.value as R);
      else this.refused(w, new ConnectError(r.message, r.code as Code));
    }
  }
}
