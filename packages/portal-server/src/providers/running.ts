// Statements running right now that their owner may cancel: registered under (owner, client-chosen query id)
// while they run, so /api/db/cancel can stop only the caller's own statement.
export class RunningQueries {
  private readonly byKey = new Map<string, { cancel: () => Promise<void>; cancelled: boolean }>();

  private key(owner: string, queryId: string): string {
    return `${owner}\u0000${queryId}`;
  }

  /** Registers a running statement; the returned function unregisters it. */
  register(owner: string, queryId: string, cancel: () => Promise<void>): () => void {
    const k = this.key(owner, queryId);
    const entry = { cancel, cancelled: false };
    this.byKey.set(k, entry);
    return () => {
      if (this.byKey.get(k) === entry) this.byKey.delete(k);
    };
  }

  /** Cancels the owner's statement; false when the owner has no statement under that id. */
  async cancel(owner: string, queryId: string): Promise<boolean> {
    const entry = this.byKey.get(this.key(owner, queryId));
    if (!entry) return false;
    entry.cancelled = true;
    await entry.cancel();
    return true;
  }

  size(): number {
    return this.byKey.size;
  }
}
