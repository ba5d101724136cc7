// Explicit transactions owned by one session user: each holds a dedicated connection (and a lease on its
// provider, so the pool is not evicted under it). A transaction idle for longer than the idle timeout is
// rolled back and its connection released; so is every transaction when the server stops.
import { randomUUID } from 'node:crypto';
import type { Lease } from './cache.js';
import type { ProviderSession } from './types.js';

export const TRANSACTION_IDLE_MS = 5 * 60_000;
export const MAX_TRANSACTIONS_PER_USER = 5;

export interface OwnedTransaction {
  id: string;
  owner: string;
  identity: string;
  connectionId: string;
  session: ProviderSession;
  lease: Lease;
  /** What the route resolved at begin (descriptor, policy, dialect), reused by later actions. */
  target: unknown;
  startedAt: number;
  lastUsedAt: number;
  busy: boolean;
}

export class TransactionManager {
  private readonly byId = new Map<string, OwnedTransaction>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly idleMs = TRANSACTION_IDLE_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(
      () => void this.sweep(),
      Math.max(1_000, Math.min(30_000, Math.floor(idleMs / 2))),
    );
    this.timer.unref();
  }

  countFor(owner: string): number {
    let n = 0;
    for (const t of this.byId.values()) if (t.owner === owner) n++;
    return n;
  }

  add(
    owner: string,
    identity: string,
    connectionId: string,
    session: ProviderSession,
    lease: Lease,
    target: unknown,
  ): OwnedTransaction {
    const t: OwnedTransaction = {
      id: randomUUID(),
      owner,
      identity,
      connectionId,
      session,
      lease,
      target,
      startedAt: this.now(),
      lastUsedAt: this.now(),
      busy: false,
    };
    this.byId.set(t.id, t);
    return t;
  }

  /** The owner's transaction; another user's id is reported as unknown. */
  get(owner: string, id: string): OwnedTransaction | undefined {
    const t = this.byId.get(id);
    return t && t.owner === owner ? t : undefined;
  }

  touch(t: OwnedTransaction): void {
    t.lastUsedAt = this.now();
  }

  /** Ends a transaction: rolls back whatever is still open, returns the connection, releases the lease. */
  async end(t: OwnedTransaction): Promise<void> {
    if (this.byId.get(t.id) !== t) return;
    this.byId.delete(t.id);
    try {
      await t.session.close();
    } finally {
      t.lease.release();
    }
  }

  /** Ends the owner's transactions on one connection identity (disconnect). */
  async endFor(owner: string, identity: string): Promise<number> {
    const mine = [...this.byId.values()].filter((t) => t.owner === owner && t.identity === identity);
    for (const t of mine) await this.end(t);
    return mine.length;
  }

  /** Rolls back transactions abandoned for longer than the idle timeout. */
  async sweep(): Promise<number> {
    const cutoff = this.now() - this.idleMs;
    const stale = [...this.byId.values()].filter((t) => !t.busy && t.lastUsedAt <= cutoff);
    for (const t of stale) await this.end(t).catch(() => undefined);
    return stale.length;
  }

  async closeAll(): Promise<void> {
    clearInterval(this.timer);
    for (const t of [...this.byId.values()]) await this.end(t).catch(() => undefined);
  }
}
