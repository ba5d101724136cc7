// A bounded-by-the-caller async queue: producers `push`, one consumer iterates. Used to turn "the server wants
// to tell this agent something" into the outbound half of a gRPC stream. What is pushed is bounded by the
// protocol itself (assignments by the agent's capacity, one ack per heartbeat, cancellations by its jobs).
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting?: (r: IteratorResult<T>) => void;
  private done = false;

  /** False when the queue is closed (the message will never be delivered). */
  push(item: T): boolean {
    if (this.done) return false;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w({ value: item, done: false });
    } else {
      this.items.push(item);
    }
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
