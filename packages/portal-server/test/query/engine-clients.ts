// One-statement clients of the real PostgreSQL and MariaDB the kit harness starts, for tests that check a
// route's effect in the database itself (table browser, designer, import): each call opens a connection,
// runs the text and closes, so a test never shares a session with the portal it is checking.
import mysql from 'mysql2/promise';
import pg from 'pg';

export type Run = (text: string) => Promise<Record<string, unknown>[]>;

export const pgRun =
  (url: string): Run =>
  async (text) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return (await c.query(text)).rows;
    } finally {
      await c.end();
    }
  };

export const myRun =
  (url: string): Run =>
  async (text) => {
    const c = await mysql.createConnection(url);
    try {
      const [rows] = await c.query(text);
      return rows as Record<string, unknown>[];
    } finally {
      await c.end();
    }
  };
