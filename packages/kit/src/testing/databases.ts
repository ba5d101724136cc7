// Fresh, isolated databases on the shared test servers, one per test file or test, so tests never see each
// other's rows and can run in parallel.
import { randomBytes } from 'node:crypto';
import { createConnection as createMysqlConnection } from 'mysql2/promise';
import pg from 'pg';

function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** Creates a new PostgreSQL database on the server of `adminUrl` and returns its URL. */
export async function createPostgresDatabase(adminUrl: string, prefix = 't'): Promise<string> {
  const name = uniqueName(prefix);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates a new MariaDB database on the server of `adminUrl` and returns its URL. */
export async function createMariadbDatabase(adminUrl: string, prefix = 't'): Promise<string> {
  const name = uniqueName(prefix);
  const conn = await createMysqlConnection(adminUrl);
  try {
    await conn.query(`CREATE DATABASE \`${name}\``);
  } finally {
    await conn.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
