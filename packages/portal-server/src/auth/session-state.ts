// Where sign-in state that must outlive one request lives: second-factor codes already accepted and sessions
// ended by logout. In this process by default (`STORAGE_PROVIDER=local`); in the server storage when one is
// configured (storage/session-state.ts), so every replica on that storage refuses a reused code and a
// logged-out cookie.

export interface SessionStateStore {
  /** Records an accepted code; false when it was recorded already (a replay). Atomic across replicas. */
  claimCode(key: string, expiresAtMs: number): Promise<boolean>;
  /** Ends a session (by token id) until its own expiry. */
  revoke(jti: string, expiresAtMs: number): Promise<void>;
  isRevoked(jti: string): Promise<boolean>;
}

/** Bound on remembered entries; beyond it the oldest are forgotten (they expire within 24 h anyway). */
const MAX_ENTRIES = 100_000;

/** Both lists in this process's memory: one replica only. */
export class MemorySessionState implements SessionStateStore {
  private readonly codes = new Map<string, number>();
  private readonly revoked = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async claimCode(key: string, expiresAtMs: number): Promise<boolean> {
    this.sweep(this.codes);
    if (this.codes.has(key)) return false;
    this.codes.set(key, expiresAtMs);
    return true;
  }

  async revoke(jti: string, expiresAtMs: number): Promise<void> {
    this.sweep(this.revoked);
    this.revoked.set(jti, expiresAtMs);
  }

  async isRevoked(jti: string): Promise<boolean> {
    return this.revoked.has(jti);
  }

  /** Drops expired entries (insertion order is roughly expiry order) and the oldest beyond the bound. */
  private sweep(map: Map<string, number>): void {
    const now = this.now();
    for (const [k, exp] of map) {
      if (exp > now && map.size < MAX_ENTRIES) break;
      map.delete(k);
    }
  }
}
