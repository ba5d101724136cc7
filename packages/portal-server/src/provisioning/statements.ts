// The statements that create least-privilege accounts (pure): per engine family, the login role of the
// `read` or `readwrite` profile and, when asked, the agent's read-only role, granted on each named schema.
// Each statement carries its purpose and a shown form with the password masked; the real text stays
// server-side. Existing accounts get a new password instead of a CREATE. Names derive from the datasource
// id so a second run finds the same accounts.
import type { SeedFamily } from '../seed/types.js';
import type { AccountInventory, AccountPlan, AccountRequest, PlannedStatement } from './types.js';

export const MASK = '********';
/** MySQL user names are at most 32 characters; PostgreSQL role names 63. */
const NAME_MAX = 32;

export interface Statement extends PlannedStatement {
  /** The text that runs (with the password). */
  sql: string;
  /**
   * A read answering `ok` once the statement took effect. PostgreSQL answers a GRANT by an account without
   * grant rights with a warning and grants nothing; this check turns that into a refusal.
   */
  verify?: { sql: string; params: string[] };
}

function slug(id: string): string {
  return id.toLowerCase().replace(/[^a-z0-9_]/g, '_');
}

export function accountNames(datasourceId: string, profile: AccountRequest['profile']) {
  return {
    roleName: `portal_${profile === 'read' ? 'ro' : 'rw'}_${slug(datasourceId)}`.slice(0, NAME_MAX),
    agentRoleName: `portal_agent_${slug(datasourceId)}`.slice(0, NAME_MAX),
  };
}

const pgIdent = (s: string) => `"${s.replaceAll('"', '""')}"`;
const myIdent = (s: string) => `\`${s.replaceAll('`', '``')}\``;
const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;

function statement(
  sql: string,
  password: string | undefined,
  purpose: string,
  account: string,
  optional = false,
): Statement {
  const shown = password ? sql.replace(lit(password), `'${MASK}'`) : sql;
  return { sql, shown, purpose, account, ...(optional ? { optional: true } : {}) };
}

/** One account of the plan: the login role of the profile, or the agent's read-only role. */
interface AccountSpec {
  name: string;
  /** Who the statement is for, as the preview shows it. */
  label: string;
  /** May change rows (the `readwrite` profile); every other account only reads. */
  writes: boolean;
}

/** Statements of one family that create (or re-key) one account and grant it the existing schemas. */
type AccountStatements = (
  a: AccountSpec,
  inv: AccountInventory,
  schemas: string[],
  password: string,
) => Statement[];

const postgres: AccountStatements = ({ name, label, writes }, inv, schemas, pw) => {
  const out: Statement[] = [];
  const r = pgIdent(name);
  out.push(
    inv.existingAccounts.includes(name)
      ? statement(
          `ALTER ROLE ${r} WITH LOGIN PASSWORD ${lit(pw)} NOSUPERUSER NOCREATEDB NOCREATEROLE`,
          pw,
          `${label}: the role exists, so it gets a new password and loses any elevated attribute`,
          name,
        )
      : statement(
          `CREATE ROLE ${r} WITH LOGIN PASSWORD ${lit(pw)} NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT`,
          pw,
          `${label}: create the login role with no elevated attribute`,
          name,
        ),
  );
  if (!writes) {
    out.push(
      statement(
        `ALTER ROLE ${r} SET default_transaction_read_only = on`,
        undefined,
        `${label}: every session of the role starts read-only`,
        name,
      ),
    );
  }
  out.push(
    statement(
      `GRANT CONNECT ON DATABASE ${pgIdent(inv.database)} TO ${r}`,
      undefined,
      `${label}: may connect to ${inv.database}`,
      name,
    ),
  );
  for (const s of schemas) {
    const q = pgIdent(s);
    out.push({
      ...statement(
        `GRANT USAGE ON SCHEMA ${q} TO ${r}`,
        undefined,
        `${label}: may see the objects of ${s}`,
        name,
      ),
      verify: { sql: "SELECT has_schema_privilege($1, $2, 'USAGE') AS ok", params: [name, s] },
    });
    const tablePrivileges = writes ? 'SELECT, INSERT, UPDATE, DELETE' : 'SELECT';
    out.push(
      statement(
        `GRANT ${tablePrivileges} ON ALL TABLES IN SCHEMA ${q} TO ${r}`,
        undefined,
        `${label}: ${writes ? 'read and change rows of' : 'read'} the tables and views of ${s}`,
        name,
      ),
    );
    if (writes) {
      out.push(
        statement(
          `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${q} TO ${r}`,
          undefined,
          `${label}: use the sequences of ${s} (serial keys on insert)`,
          name,
        ),
      );
    }
    out.push(
      statement(
        `ALTER DEFAULT PRIVILEGES IN SCHEMA ${q} GRANT ${tablePrivileges} ON TABLES TO ${r}`,
        undefined,
        `${label}: the same on tables the connecting account creates in ${s} later`,
        name,
        true,
      ),
    );
  }
  return out;
};

const mysql: AccountStatements = ({ name, label, writes }, inv, schemas, pw) => {
  const u = `${lit(name)}@'%'`;
  const out: Statement[] = [
    inv.existingAccounts.includes(name)
      ? statement(
          `ALTER USER ${u} IDENTIFIED BY ${lit(pw)}`,
          pw,
          `${label}: the account exists, so it gets a new password`,
          name,
        )
      : statement(
          `CREATE USER ${u} IDENTIFIED BY ${lit(pw)}`,
          pw,
          `${label}: create the login account (any host)`,
          name,
        ),
  ];
  const privileges = writes ? 'SELECT, INSERT, UPDATE, DELETE, SHOW VIEW' : 'SELECT, SHOW VIEW';
  for (const s of schemas) {
    out.push(
      statement(
        `GRANT ${privileges} ON ${myIdent(s)}.* TO ${u}`,
        undefined,
        `${label}: ${writes ? 'read and change rows of' : 'read'} every table and view of ${s}, present and future`,
        name,
      ),
    );
  }
  return out;
};

const FAMILY_STATEMENTS: Record<SeedFamily, AccountStatements> = { postgres, mysql };

export function blockersOf(inv: AccountInventory): string[] {
  const out: string[] = [];
  for (const s of inv.schemas)
    if (!s.exists) out.push(`schema ${s.name} does not exist (or the connecting account cannot see it)`);
  if (!inv.canCreateRoles) {
    out.push(
      `the connecting account ${inv.connectedAs} may not create accounts: give bootstrap credentials of one that may`,
    );
  }
  return out;
}

export function buildAccountPlan(
  family: SeedFamily,
  req: AccountRequest,
  inv: AccountInventory,
  names: ReturnType<typeof accountNames>,
  passwords: Map<string, string>,
): { plan: AccountPlan; statements: Statement[] } {
  // Grants go to the schemas that exist; a missing one is a blocker (blockersOf), not a failed statement.
  const schemas = req.schemas.filter((s) => inv.schemas.find((x) => x.name === s)?.exists);
  const accounts: AccountSpec[] = [
    { name: names.roleName, label: `${req.profile} profile`, writes: req.profile === 'readwrite' },
    ...(req.agent ? [{ name: names.agentRoleName, label: 'agent (read-only)', writes: false }] : []),
  ];
  const statements = accounts.flatMap((a) =>
    FAMILY_STATEMENTS[family](a, inv, schemas, passwords.get(a.name) as string),
  );
  return {
    plan: {
      roleName: names.roleName,
      ...(req.agent ? { agentRoleName: names.agentRoleName } : {}),
      statements: statements.map(({ sql: _sql, verify: _verify, ...shown }) => shown),
      blockers: blockersOf(inv),
    },
    statements,
  };
}
