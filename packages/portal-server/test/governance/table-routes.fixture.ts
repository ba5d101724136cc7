// Shared setup of the table-route tests (table data, import, design, rebuild): SQLite files seeded in a
// temporary folder, read back through a separate read-only connection (so a test checks the file itself, not
// what the route answers), and the governed routes over the usual three datasources — `open`, `ro`
// (read-only) and `held` (write approval) — each on its own file.
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import Database from 'better-sqlite3';
import { type GovernedHarness, governed, managedDs } from './policy-harness.js';

/** Who sends a request: a signed-in user, or `null` for none (the routes answer 401). */
export type RouteUser = { username: string; role: 'admin' | 'user' } | null;

/** A folder of SQLite files: `seed(name, sql)` creates `<name>.db` there, runs the SQL and gives its path. */
export function sqliteFiles(prefix: string) {
  const dir = tempDir(prefix);
  return {
    seed(name: string, sql: string | ((db: Database.Database) => void)): string {
      const f = join(dir, `${name}.db`);
      const db = new Database(f);
      if (typeof sql === 'string') db.exec(sql);
      else sql(db);
      db.close();
      return f;
    },
  };
}

/** The rows of `sql` on the file, through a fresh read-only connection. */
export function read(f: string, sql: string): unknown[] {
  const db = new Database(f, { readonly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

/** A datasource's policy keys, as `managedDs` takes them. */
type Policy = Parameters<typeof managedDs>[2];

export interface TableRouteFiles {
  open: string;
  ro: string;
  held: string;
}

/**
 * The governed routes over `files`: `open` with guardrails off (plus `open`'s own policy), `ro` read-only and
 * `held` holding writes for approval (plus `held`'s own policy).
 */
export function governedTables(
  files: TableRouteFiles,
  policy: { open?: Policy; held?: Policy } = {},
): Promise<GovernedHarness> {
  return governed([
    managedDs('open', { type: 'sqlite', database: files.open }, { guardrails: false, ...policy.open }),
    managedDs('ro', { type: 'sqlite', database: files.ro }, { readOnly: true }),
    managedDs('held', { type: 'sqlite', database: files.held }, { writeApproval: true, ...policy.held }),
  ]);
}

/** `open`'s masking in the data and import tests: people.email answered and stored as masked. */
export const MASKED_EMAIL: Policy = { masking: [{ column: 'people.email', rule: 'full' }] };
