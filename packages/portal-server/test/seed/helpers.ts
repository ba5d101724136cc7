// Shared helpers of the seed and account tests: datasource YAML entries for a database URL, direct
// statements on the test databases, and admin requests against a portal built by the bot harness.
import mysql from 'mysql2/promise';
import pg from 'pg';
import { ORIGIN } from '../auth/helpers.js';
import type { BotHarness } from '../bot/harness.js';

export type Family = 'postgres' | 'mysql';

export function entry(id: string, type: string, url: string, extra: string[] = []): string {
  const u = new URL(url);
  return [
    `  - id: ${id}`,
    `    type: ${type}`,
    `    host: ${u.hostname}`,
    `    port: ${u.port}`,
    `    user: ${decodeURIComponent(u.username)}`,
    `    password: "${decodeURIComponent(u.password)}"`,
    `    database: ${u.pathname.slice(1)}`,
    '    roles: [admin, user]',
    ...extra.map((l) => `    ${l}`),
    '',
  ].join('\n');
}

/** Runs statements on a test database as its owner; answers the rows of the last one. */
export async function sqlOn(
  family: Family,
  url: string,
  statements: string[],
): Promise<Record<string, unknown>[]> {
  if (family === 'postgres') {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      let rows: Record<string, unknown>[] = [];
      for (const s of statements) rows = (await c.query(s)).rows;
      return rows;
    } finally {
      await c.end();
    }
  }
  const c = await mysql.createConnection(url);
  try {
    let rows: Record<string, unknown>[] = [];
    for (const s of statements) rows = (await c.query(s))[0] as Record<string, unknown>[];
    return rows;
  } finally {
    await c.end();
  }
}

export function adminPost(h: BotHarness, url: string, payload: unknown, who: 'admin' | 'user' = 'admin') {
  return h.server.app.inject({
    method: 'POST',
    url,
    headers: { cookie: `auth-token=${who === 'admin' ? h.adminCookie : h.userCookie}`, origin: ORIGIN },
    payload: payload as Record<string, unknown>,
  });
}

export function adminGet(h: BotHarness, url: string, who: 'admin' | 'user' = 'admin') {
  return h.server.app.inject({
    method: 'GET',
    url,
    headers: { cookie: `auth-token=${who === 'admin' ? h.adminCookie : h.userCookie}` },
  });
}
