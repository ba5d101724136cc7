// Notifications (of stored log lines, and run-change messages), immediate when idle and gathered under
// volume: the first key announced after a quiet spell is sent at the end of the current turn of the event
// loop (a microtask, no timer), and the keys announced while a round of sends is in flight wait for it and
// leave together, one notification per key, when it ends. Without the gate every commit sent its own
// pg_notify over the one notifying connection, and under volume those queued behind each other, so a
// notification lagged its commit by the length of that queue.

export class NotifyCoalescer {
  private readonly waiting = new Set<string>();
  private busy = false;
  /** Rounds of sends made, and announcements that rode along with another's round. */
  readonly stats = { rounds: 0, announced: 0 };

  /** `send` sends one round (one notification per key); its failure is the caller's to ignore. */
  constructor(private readonly send: (keys: string[]) => Promise<void>) {}

  announce(key: string): void {
    this.stats.announced++;
    this.waiting.add(key);
    if (this.busy) return;
    this.busy = true;
    // A microtask, not a timer: the runs a single commit's callback announces leave as one round.
    queueMicrotask(() => void this.drain());
  }

  private async drain(): Promise<void> {
    while (this.waiting.size > 0) {
      const keys = [...this.waiting];
      this.waiting.clear();
      this.stats.rounds++;
      await this.send(keys).catch(() => undefined);
    }
    this.busy = false;
  }
}
