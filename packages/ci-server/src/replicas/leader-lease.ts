// A leader lease in the shared store, so that timers (polling, cron) fire in one replica at a time: a row in
// `leader_leases` names its holder and an expiry the holder pushes forward on every tick. Taking the lease
// is one conditional upsert (insert, or take over when it is ours or has expired), atomic on SQLite and
// PostgreSQL alike. Correctness does not rest on it alone: every firing also claims a unique row, so two
// leaders overlapping for a moment (clock skew, a paused process) still fire once.
import { randomUUID } from 'node:crypto';
import type { StoreDb } from '../store/database.js';

export interface LeaseOptions {
  name?: string;
  /** How long a lease lives without renewal. */
  ttlMs?: number;
  now?: () => Date;
  holder?: string;
}

export class LeaderLease {
  readonly name: string;
  readonly holder: string;
  private readonly ttlMs: number;
  private readonly now: () => Date;
  private held = false;

  constructor(
    private readonly db: StoreDb,
    options: LeaseOptions = {},
  ) {
    this.name = options.name ?? 'triggers';
    this.holder = options.holder ?? randomUUID();
    this.ttlMs = options.ttlMs ?? 15_000;
    this.now = options.now ?? (() => new Date());
  }

  get isLeader(): boolean {
    return this.held;
  }

  /** Takes or renews the lease; true when this process holds it afterwards. */
  async acquire(): Promise<boolean> {
    const now = this.now();
    const nowIso = now.toISOString();
    const expires = new Date(now.getTime() + this.ttlMs).toISOString();
    const row = await this.db
      .insertInto('leader_leases')
      .values({ name: this.name, holder: this.holder, acquired_at: nowIso, expires_at: expires })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet((eb) => ({
            holder: eb.ref('excluded.holder'),
            expires_at: eb.ref('excluded.expires_at'),
            acquired_at: eb
              .case()
              .when('leader_leases.holder', '=', this.holder)
              .then(eb.ref('leader_leases.acquired_at'))
              .else(eb.ref('excluded.acquired_at'))
              .end(),
          }))
          .where((eb) =>
            eb.or([
              eb('leader_leases.holder', '=', this.holder),
              eb('leader_leases.expires_at', '<', nowIso),
            ]),
          ),
      )
      .returning('holder')
      .executeTakeFirst();
    this.held = row?.holder === this.holder;
    return this.held;
  }

  /** Gives the lease up (at shutdown), so another replica takes over at its next tick. */
  async release(): Promise<void> {
    this.held = false;
    await this.db
      .deleteFrom('leader_leases')
      .where('name', '=', this.name)
      .where('holder', '=', this.holder)
      .execute();
  }

  /** The current holder as stored, for the health view. */
  async current(): Promise<{ holder: string; expires_at: string } | undefined> {
    return this.db
      .selectFrom('leader_leases')
      .select(['holder', 'expires_at'])
      .where('name', '=', this.name)
      .executeTakeFirst();
  }
}
