// Shared helpers of the seed and account tests: direct statements on the test databases, and admin requests
// against a portal built by the bot harness (whose datasourceEntry writes their datasource entries).
import mysql from 'mysql2/promise';
import pg from 'pg';
import { ORIGIN } from '../auth/helpers.js';
import type { BotHarness } from '../bot/harness.js';

export type Family = 'postgres' | 'mysql';

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
