// What one engine is, in one object: the engine descriptor every providers/<engine>/engine.ts exports and
// the registry lists. It carries the id, capabilities, default port, descriptor validation, whether the
// engine is a file on the server, how the engine itself is made read-only, and the SQL dialect (splitter,
// parser grammar, quoting, limit clause, comment and literal rules, transaction-control words: the
// sql/ helpers take it as a parameter, sql/dialect.ts). The provider
// implementation (drivers, WASM) is loaded by `create` on first use, so an engine no datasource uses costs
// no memory. The classifier's rules (grammars, lexical rules, the engine's own statement forms, or the reader
// of a request language) are the descriptor's `classifier` (classifier-rules.ts).
import type { SqlDialect } from '../sql/dialect.js';
import type { ProviderFactory } from './types.js';

/**
 * How a guarded write is tried in a transaction that is rolled back (issue 27, "guardrails judged by effect";
 * execution/dry-run.ts): what bounds its waits, and how the engine counts the rows an upsert updates.
 */
export interface DryRunRules {
  /** Run right after BEGIN: lock and statement timeouts (transaction-scoped, or session-scoped and `reset`). */
  readonly enter: readonly string[];
  /** Run after the rollback to restore the session settings `enter` changed (a pooled connection). */
  readonly reset?: readonly string[];
  /** Savepoints exist: a dry run inside the caller's own open transaction is rolled back to one. */
  readonly savepoints: boolean;
  /** Affected rows the engine reports per existing row an upsert updates (MySQL: 2). */
  readonly updatedRowWeight: number;
  /** DDL commits implicitly (MySQL): a script holding a non-DML write is never dry-run. */
  readonly implicitCommit: boolean;
  /**
   * A query answering the rows this transaction has inserted, updated and deleted so far per table, with
   * the columns `relid`, `root` (the partitioned table a partition belongs to, else relid), `name`
   * (schema-qualified and quoted), `ins`, `upd`, `del`. Read before and after a guarded statement, it counts
   * the rows triggers and cascades changed in every table (PostgreSQL's pg_stat_xact_all_tables). Engines
   * without it count the statement's own table only (docs/portal-governance.md "Dry runs").
   */
  readonly changedRows?: string;
  /** A query answering `relid` of the table named by parameter 1 (as `changedRows` names it). */
  readonly tableId?: string;
}

/**
 * How an engine refuses writes: a READ ONLY transaction (`SET TRANSACTION READ ONLY` after BEGIN), one begun
 * read-only (`BEGIN TRANSACTION READ ONLY`, DuckDB), a READ ONLY session, `PRAGMA query_only`, or `provider`:
 * the provider's own `readOnlyView()` (per-request settings, a command filter).
 */
export type ReadOnlyMode = 'transaction' | 'begin-read-only' | 'session' | 'pragma' | 'provider';

/**
 * One engine, everything about it: the provider factory's fields (id, capabilities, default port, descriptor
 * validation, statement guard, dialect name and rules, `create`) with the id and dialect as literal types, so the
 * registry can derive `EngineId` and `Dialect` from its list.
 */
export type EngineDescriptor<Id extends string, D extends string> = Omit<
  ProviderFactory,
  'engine' | 'dialect' | 'sqlDialect'
> & {
  readonly engine: Id;
  readonly dialect: D;
  readonly sqlDialect: SqlDialect & { readonly name: D };
  readonly fileBased: boolean;
};
