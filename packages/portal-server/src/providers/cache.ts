// Providers cached by the full connection identity (identity.ts), one pool each, opened once even under
// concurrent first use, and closed after 30 minutes without use. A provider in use (a running statement, an
// open transaction, a stream) is never evicted.

import { withDeadline } from './deadline.js';
import { resolveTimeouts } from './descriptor.js';
import { configError, ProviderError } from './errors.js';
import { connectionIdentity } from './identity.js';
import { openTunnel, type Tunnel } from './ssh.js';
import type {
  ConnectionDescriptor,
  Provider,
  ProviderContext,
  ProviderFactory,
  ResolvedConnection,
} from './types.js';

export const IDLE_EVICTION_MS = 30 * 60_000;

interface Entry {
  identity: string;
  engine: string;
  name: string;
  opening: Promise<Provider>;
  provider?: Provider;
  tunnel?: Tunnel;
  active: number;
  openedAt: number;
  lastUsedAt: number;
}

export interface CacheEntryStats {
  identity: string;
  engine: string;
  name: string;
  active: number;
  openedAt: string;
  lastUsedAt: string;
  pool: { total: number; idle: number; waiting: number };
}

export interface Lease {
  provider: Provider;
  identity: string;
  release(): void;
}

export class ProviderCache {
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    /** The engine of a connection type (registry.ts engineFor; a test passes its own). */
    private readonly engineFor: (type: unknown) => ProviderFactory,
    readonly ctx: ProviderContext,
    private readonly idleMs = IDLE_EVICTION_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => void this.sweep(), Math.min(60_000, idleMs));
    this.sweeper.unref();
  }

  /** Resolves the descriptor into what a factory needs, opening the SSH tunnel when one is configured. */
  private async resolve(
    conn: ConnectionDescriptor,
    defaultPort: number | undefined,
  ): Promise<{ resolved: ResolvedConnection; tunnel?: Tunnel }> {
    const timeouts = resolveTimeouts(conn);
    const ssh = conn.sshTunnel ?? (conn.sshProfile ? this.ctx.sshProfiles(conn.sshProfile) : undefined);
    if (conn.sshProfile && !ssh) throw configError(`Unknown SSH profile ${conn.sshProfile}`);
    if (!ssh) return { resolved: { descriptor: conn, ...timeouts, host: conn.host, port: conn.port } };
    const port = conn.port ?? defaultPort;
    if (!conn.host || !port) throw configError('An SSH tunnel needs the database host and port');
    const tunnel = await openTunnel(ssh, { host: conn.host, port }, timeouts.connectTimeoutMs);
    return {
      resolved: {
        descriptor: conn,
        ...timeouts,
        host: tunnel.host,
        port: tunnel.port,
        reach: (target) => tunnel.forward(target),
      },
      tunnel,
    };
  }

  /** A provider for the descriptor; the caller must `release()` the lease when done with it. */
  async acquire(conn: ConnectionDescriptor): Promise<Lease> {
    const identity = connectionIdentity(conn);
    let entry = this.entries.get(identity);
    if (!entry) {
      const factory = this.engineFor(conn.type);
      const base: Omit<Entry, 'opening'> = {
        identity,
        engine: factory.engine,
        name: typeof conn.name === 'string' ? conn.name : conn.id,
        active: 0,
        openedAt: this.now(),
        lastUsedAt: this.now(),
      };
      // The entry is `base` itself (Object.assign adds `opening` to it): the opener fills in its tunnel and provider.
      const created: Entry = Object.assign(base, {
        opening: (async () => {
          const { resolved, tunnel } = await this.resolve(conn, factory.defaultPort);
          base.tunnel = tunnel;
          try {
            const provider = await factory.create(resolved, this.ctx);
            base.provider = provider;
            return provider;
          } catch (err) {
            await tunnel?.close();
            throw err;
          }
        })(),
      });
      this.entries.set(identity, created);
      created.opening.catch(() => {
        if (this.entries.get(identity) === created) this.entries.delete(identity);
      });
      entry = created;
    }
    entry.active++;
    entry.lastUsedAt = this.now();
    try {
      const provider = await entry.opening;
      const e = entry;
      let released = false;
      return {
        provider,
        identity,
        release: () => {
          if (released) return;
          released = true;
          e.active--;
          e.lastUsedAt = this.now();
        },
      };
    } catch (err) {
      entry.active--;
      throw err;
    }
  }

  /** Runs `fn` with a provider for the descriptor, releasing the lease afterwards. */
  async use<T>(
    conn: ConnectionDescriptor,
    fn: (provider: Provider, identity: string) => Promise<T>,
  ): Promise<T> {
    const lease = await this.acquire(conn);
    try {
      return await fn(lease.provider, lease.identity);
    } finally {
      lease.release();
    }
  }

  /**
   * Opens a provider outside the cache (the connectivity check of test-connection): runs `fn` on it within
   * the connect timeout and closes it, tunnel included.
   */
  async probe<T>(conn: ConnectionDescriptor, fn: (provider: Provider) => Promise<T>): Promise<T> {
    const factory = this.engineFor(conn.type);
    const { resolved, tunnel } = await this.resolve(conn, factory.defaultPort);
    let provider: Provider | undefined;
    try {
      const run = (async () => {
        provider = await factory.create(resolved, this.ctx);
        return fn(provider);
      })();
      run.catch(() => undefined);
      return await withDeadline(run, {
        timeoutMs: resolved.connectTimeoutMs,
        cancel: () => undefined,
      }).catch((err) => {
        if ((err as { kind?: string }).kind === 'timeout') {
          throw new ProviderError(
            'connection',
            `No answer from the database within ${resolved.connectTimeoutMs} ms`,
          );
        }
        throw err;
      });
    } finally {
      await provider?.close().catch(() => undefined);
      await tunnel?.close().catch(() => undefined);
    }
  }

  has(identity: string): boolean {
    return this.entries.has(identity);
  }

  /** Closes and forgets one provider (disconnect). In-flight work on it fails with the driver's error. */
  async evict(identity: string): Promise<boolean> {
    const entry = this.entries.get(identity);
    if (!entry) return false;
    this.entries.delete(identity);
    await this.closeEntry(entry);
    return true;
  }

  private async closeEntry(entry: Entry): Promise<void> {
    try {
      const provider = entry.provider ?? (await entry.opening.catch(() => undefined));
      await provider?.close();
    } catch {
      // closing a broken pool must not break the caller
    } finally {
      await entry.tunnel?.close().catch(() => undefined);
    }
  }

  /** Closes providers idle for longer than the eviction time. */
  async sweep(): Promise<number> {
    const cutoff = this.now() - this.idleMs;
    const stale = [...this.entries.values()].filter(
      (e) => e.active === 0 && e.lastUsedAt <= cutoff && e.provider,
    );
    for (const e of stale) {
      this.entries.delete(e.identity);
      await this.closeEntry(e);
    }
    return stale.length;
  }

  stats(): CacheEntryStats[] {
    return [...this.entries.values()].map((e) => ({
      identity: e.identity.slice(0, 12),
      engine: e.engine,
      name: e.name,
      active: e.active,
      openedAt: new Date(e.openedAt).toISOString(),
      lastUsedAt: new Date(e.lastUsedAt).toISOString(),
      pool: e.provider?.poolStats() ?? { total: 0, idle: 0, waiting: 0 },
    }));
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => this.closeEntry(e)));
  }
}
