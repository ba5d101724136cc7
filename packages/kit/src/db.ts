// Kysely factory for the two stores every service supports: `sqlite:<path>` (better-sqlite3 in WAL mode,
// the embedded default) and `postgres://` URLs (pg pool), plus a forward-only migration runner and the
// registry of statements PostgreSQL runs as named prepared statements.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type Migration, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';

export type DialectName = 'sqlite' | 'postgres';

export interface Database<DB = any> {
  db: Kysely<DB>;
  dialect: DialectName;
  /** Redacted URL, safe to log. */
  displayUrl: string;
  close(): Promise<void>;
}

export class DatabaseUrlError extends Error {
  override name = 'DatabaseUrlError';
}

// PostgreSQL BIGINT (int8) and NUMERIC as JS numbers for counts and sizes that fit; timestamps stay strings.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}

// Statement texts (as Kysely compiles them, parameters as $n) that run as named prepared statements, by name.
const preparedNames = new Map<string, string>();
/** A bound on the registry: the texts are code constants, so more means a text carries values by mistake. */
const PREPARED_MAX = 100;

/**
 * Marks a statement text to run as a named prepared statement on PostgreSQL: parsed once per connection and,
 * once PostgreSQL has seen (after five executions) that a generic plan costs no more than planning each call,
 * planned once per connection as well. Only for texts built from constants (never with values inlined) whose
 * best plan does not depend on the parameter values, since a generic plan is chosen without them: e.g. a
 * range of the one index that matches an unfiltered ORDER BY, with a literal LIMIT. Returns false (and the
 * text runs unprepared, as every other statement) when the registry is full. SQLite ignores the mark.
 */
export function preparePostgresStatement(text: string): boolean {
  if (preparedNames.has(text)) return true;
  if (preparedNames.size >= PREPARED_MAX) return false;
  preparedNames.set(text, `kysely_prepared_${preparedNames.size + 1}`);
  return true;
}

/**
 * The pool's client: a text marked by preparePostgresStatement goes out under its statement name (the
 * driver parses it on a connection's first use and then only binds and executes), anything else unchanged.
 * Kysely calls `query(text, values)`; other call forms (config objects, cursors) pass through.
 */
class PreparingClient extends pg.Client {
  // pg's overloads cannot be restated one by one in a subclass: the arguments are passed on untouched.
  override query(...args: any[]): any {
    const [text, values] = args;
    const name = args.length === 2 && typeof text === 'string' ? preparedNames.get(text) : undefined;
    if (name) return (super.query as any)({ name, text, values });
    return (super.query as any)(...args);
  }
}

export interface OpenOptions {
  /** Maximum pool size for PostgreSQL. */
  poolSize?: number;
}

/** Opens a database from a `sqlite:<path>` or `postgres://…` URL. */
export function openDatabase<DB = any>(url: string, options: OpenOptions = {}): Database<DB> {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!path) throw new DatabaseUrlError('sqlite URL needs a file path, e.g. sqlite:./.data/ci/ci.db');
    const file = path === ':memory:' ? path : resolve(path);
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const conn = new SQLite(file);
    conn.pragma('journal_mode = WAL');
    conn.pragma('synchronous = NORMAL');
    conn.pragma('foreign_keys = ON');
    conn.pragma('busy_timeout = 5000');
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: conn }) });
    return { db, dialect: 'sqlite', displayUrl: `sqlite:${file}`, close: () => db.destroy() };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
      Client: PreparingClient,
    });
    // An idle client losing its server must not crash the process; the next query reports the error.
    pool.on('error', () => {});
    // A client checked out between queries (inside a transaction) has no listener of its own: its
    // "Connection terminated" would be an uncaught exception. The next query on it reports the error.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', displayUrl: redactUrl(url), close: () => db.destroy() };
  }
  throw new DatabaseUrlError(
    `unsupported database URL "${redactUrl(url)}": use sqlite:<path> or postgres://…`,
  );
}

/** Runs `SELECT 1`; throws the driver's error when the database is unreachable. */
export async function pingDatabase(db: Kysely<any>): Promise<void> {
  await sql`select 1`.execute(db);
}

export type Migrations = Record<string, Migration>;

/**
 * Applies every pending migration in name order. Forward-only: there is no down path, and a database that
 * has a migration this code does not know is refused rather than guessed at.
 */
export async function migrateToLatest(db: Kysely<any>, migrations: Migrations): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when every known migration has been applied. */
export async function migrationsDone(db: Kysely<any>, migrations: Migrations): Promise<boolean> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const list = await migrator.getMigrations();
  return list.every((m) => m.executedAt !== undefined);
}
