// An async queue: producers `push`, one consumer iterates. The outbound half of a gRPC stream on both ends of
// the CI agent session: the control plane's messages to one agent (bounded by the protocol itself:
// assignments by the agent's capacity, one ack per heartbeat, cancellations by its jobs) and the agent's
// messages to the server (heartbeats and reports; `maxItems` drops beyond a bound while the stream is stuck).
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting?: (r: IteratorResult<T>) => void;
  private done = false;

  constructor(private readonly options: { maxItems?: number } = {}) {}

  /** False when the item is not queued: the queue is closed, or holds `maxItems` already (it is dropped). */
  push(item: T): boolean {
    if (this.done) return false;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w({ value: item, done: false });
      return true;
    }
    if (this.options.maxItems !== undefined && this.items.length >= this.options.maxItems) return false;
    this.items.push(item);
    return true;
  }

  close(): void {
    this.done = true;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w({ value: undefined, done: true });
    }
  }

  get closed(): boolean {
    return this.done;
  }

  get size(): number {
    return this.items.length;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const item = this.items.shift();
        if (item !== undefined) return Promise.resolve({ value: item, done: false });
        if (this.done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolveNext) => {
          this.waiting = resolveNext;
        });
      },
      return: () => {
        this.close();
        return Promise.resolve({ value: undefined, done: true });
      },
      // The consumer gave up (the call was aborted): stop, as `return` does.
      throw: (err?: unknown) => {
        this.close();
        return Promise.reject(err);
      },
    };
  }
}
