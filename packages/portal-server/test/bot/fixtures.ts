// Managed SQLite datasources for the bot API tests, one file each, with one policy per datasource so each
// bot rule can be exercised on its own: write approval with masking, open (guardrails only), read-only,
// ticket, freeze window, object rules, concurrency cap, two reviewers, administrators only.
import { sqliteFile } from './harness.js';

export const USERS_SQL = `
CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
INSERT INTO users (id, name, email) SELECT i, 'user' || i, 'person' || i || '@example.com' FROM n;
CREATE TABLE secrets (id INTEGER PRIMARY KEY, v TEXT);
INSERT INTO secrets VALUES (1, 'classified');
CREATE TABLE big (id INTEGER PRIMARY KEY, payload TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
INSERT INTO big SELECT i, printf('%.5000c', 'x') FROM n;
`;

export const CHAT_REVIEWER = 'U0REVIEW';
export const CHAT_SECOND = 'U0SECOND';

/** YAML entries of `datasources:`; every SQLite file is created fresh in `dir`. */
export function sqliteDatasources(dir: string): string {
  const file = (name: string) => sqliteFile(dir, `${name}.db`, USERS_SQL);
  const entry = (id: string, policy: string, roles = '[admin, user]') =>
    `  - id: ${id}\n    type: sqlite\n    database: ${file(id)}\n    roles: ${roles}\n    policy: ${policy}\n`;
  return [
    entry(
      'app',
      `{ writeApproval: true, approverRoles: [admin, "chat:${CHAT_REVIEWER}"], masking: [{ column: users.email, rule: partial }] }`,
    ),
    entry('open', '{ masking: [{ column: "*.email", rule: full }] }'),
    entry('ro', '{ readOnly: true }'),
    entry('ticketed', '{ requireTicket: true }'),
    entry(
      'frozen',
      '{ freezeWindows: [{ from: "2000-01-01T00:00:00Z", to: "2999-01-01T00:00:00Z", reason: "year-end audit" }] }',
    ),
    entry('hidden', '{ objectRules: { hidden: [main.secrets], defaultSchema: main } }'),
    entry('capped', '{ maxConcurrent: 1 }'),
    entry(
      'two',
      `{ writeApproval: true, approvalsRequired: 2, approverRoles: [admin, "chat:${CHAT_REVIEWER}", "chat:${CHAT_SECOND}"] }`,
    ),
    entry('adminonly', '{}', '[admin]'),
  ].join('');
}
