// The database as the last line (DESIGN §5; database-portal.md "read-only datasources"): statements the
// policy let through as reads run where the engine itself refuses writes — PostgreSQL in a READ ONLY
// transaction, DuckDB in a transaction begun READ ONLY, MySQL/MariaDB in a READ ONLY session (a READ ONLY
// transaction would not stop DDL there: its implicit commit ends the transaction first), SQLite and libSQL with
// `PRAGMA query_only = ON`, ClickHouse with `readonly=2` on every request and Redis behind its read-only command
// filter (the provider's `readOnlyView`) — so a write
// the classifier missed (a user function that writes, a parser gap) fails in the engine instead of landing.
// Implemented as a wrapper around a provider: `query` runs on a short-lived read-only session; sessions
// (scripts, explicit transactions) are opened read-only. Nothing is left behind on pooled connections: the
// PostgreSQL setting ends with its transaction, the MySQL session setting is reset before the connection
// returns to the pool (or the connection is killed when the reset fails), SQLite sessions own their process.
import type { ReadOnlyMode } from '../providers/engine.js';
import { engineDescriptor } from '../providers/registry.js';
import type { ExecOptions, Provider, ProviderSession } from '../providers/types.js';

type Mode = ReadOnlyMode;

/** How an engine is made read-only (its descriptor says), or undefined when it has no such switch (the classifier is the guard). */
export function readOnlyMode(engine: string): Mode | undefined {
  return engineDescriptor(engine)?.readOnly;
}

/**
 * Whether the switch costs only a few statements on a pooled connection (PostgreSQL, MySQL). SQLite's needs a
 * connection (a child process, ~100 ms) per statement, so it is kept for read-only datasources.
 */
export function readOnlyIsCheap(engine: string): boolean {
  const mode = readOnlyMode(engine);
  return mode === 'transaction' || mode === 'begin-read-only' || mode === 'session' || mode === 'provider';
}

const NO_ROWS: ExecOptions = { maxRows: 0 };

/** Opens a session on which the engine refuses writes. */
async function openReadOnly(provider: Provider, mode: Mode): Promise<ProviderSession> {
  const raw = await provider.openSession();
  const enter = async () => {
    if (mode === 'begin-read-only') {
      await raw.query('BEGIN TRANSACTION READ ONLY', [], NO_ROWS);
    } else if (mode === 'transaction') {
      await raw.begin();
      await raw.query('SET TRANSACTION READ ONLY', [], NO_ROWS);
    } else if (mode === 'session') {
      await raw.query('SET SESSION TRANSACTION READ ONLY', [], NO_ROWS);
    } else {
      await raw.query('PRAGMA query_only = ON', [], NO_ROWS);
    }
  };
  const close = async () => {
    if (mode === 'session') {
      // The pooled connection must not stay read-only; one that cannot be reset is ended instead.
      try {
        await raw.query('SET SESSION TRANSACTION READ WRITE', [], NO_ROWS);
      } catch {
        await raw.query('KILL CONNECTION CONNECTION_ID()', [], NO_ROWS).catch(() => undefined);
      }
    }
    await raw.close();
  };
  try {
    await enter();
  } catch (err) {
    await close();
    throw err;
  }
  const inTransaction = mode === 'transaction' || mode === 'begin-read-only';
  // A transaction begun with its own words is ended with them (the session did not see it begin).
  const own = mode === 'begin-read-only';
  return {
    query: (sql, params, opts) => raw.query(sql, params, opts),
    // Already inside a read-only transaction: a second BEGIN would end it (MySQL) or only warn (PostgreSQL).
    begin: async () => {
      if (!inTransaction) await raw.begin();
    },
    // Ending the transaction opens the next read-only one, so the session stays read-only.
    commit: async () => {
      if (own) await raw.query('COMMIT', [], NO_ROWS);
      else await raw.commit();
      if (inTransaction) await enter();
    },
    rollback: async () => {
      if (own) await raw.query('ROLLBACK', [], NO_ROWS);
      else await raw.rollback();
      if (inTransaction) await enter();
    },
    close: async () => {
      if (own) await raw.query('ROLLBACK', [], NO_ROWS).catch(() => undefined);
      await close();
    },
  };
}

/**
 * A provider whose statements run read-only in the engine (where the engine allows; others are returned
 * unchanged). `stream` and `explain` already run read-only in the providers.
 */
export function readOnlyProvider(provider: Provider): Provider {
  const mode = readOnlyMode(provider.engine);
  if (!mode) return provider;
  // ClickHouse's `readonly=2` on every request, Redis's read-only command filter: the provider's own view.
  if (mode === 'provider') return provider.readOnlyView?.() ?? provider;
  return new Proxy(provider, {
    get(target, prop) {
      if (prop === 'query') {
        return async (sql: string, params: Parameters<Provider['query']>[1], opts: ExecOptions) => {
          const s = await openReadOnly(target, mode);
          try {
            return await s.query(sql, params, opts);
          } finally {
            await s.close();
          }
        };
      }
      if (prop === 'openSession') return () => openReadOnly(target, mode);
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
