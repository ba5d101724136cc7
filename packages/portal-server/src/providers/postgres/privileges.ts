// Privileges of a PostgreSQL datasource account beyond what the portal needs (issue 27: fleet health and the
// datasource page warn, pointing to account provisioning, docs/portal-seed-and-accounts.md): superuser,
// role and database creation, replication, and the server-file roles (pg_read_server_files,
// pg_write_server_files, pg_execute_server_program).

export const PG_PRIVILEGE_SQL = `SELECT array_remove(ARRAY[
  CASE WHEN r.rolsuper THEN 'superuser' END,
  CASE WHEN r.rolcreaterole THEN 'CREATEROLE' END,
  CASE WHEN r.rolreplication THEN 'REPLICATION' END,
  CASE WHEN r.rolbypassrls THEN 'BYPASSRLS' END,
  CASE WHEN pg_has_role(current_user, 'pg_read_server_files', 'MEMBER') THEN 'pg_read_server_files' END,
  CASE WHEN pg_has_role(current_user, 'pg_write_server_files', 'MEMBER') THEN 'pg_write_server_files' END,
  CASE WHEN pg_has_role(current_user, 'pg_execute_server_program', 'MEMBER') THEN 'pg_execute_server_program' END
], NULL) AS risky FROM pg_roles r WHERE r.rolname = current_user`;

/** Runs the check through `query` (rows of the statement above). */
export async function pgAccountPrivileges(
  query: (sql: string) => Promise<Array<{ risky: string[] }>>,
): Promise<string[]> {
  const [row] = await query(PG_PRIVILEGE_SQL);
  return row?.risky ?? [];
}
