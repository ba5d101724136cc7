import { Redis } from 'ioredis';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { canConnect } from '../src/net.js';
import { createMariadbDatabase, createPostgresDatabase, startRedis } from '../src/testing/index.js';

describe('test harness servers', () => {
  it('PostgreSQL is real and hands out isolated databases', async () => {
    const url = await createPostgresDatabase(inject('services').postgresUrl);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query('select version() as v, current_database() as d');
    await client.end();
    expect(rows[0].v).toMatch(/^PostgreSQL \d+/);
    expect(url.endsWith(`/${rows[0].d}`)).toBe(true);
  });

  it('MariaDB is real and hands out isolated databases', async () => {
    const url = await createMariadbDatabase(inject('services').mariadbUrl);
    const conn = await createConnection(url);
    const [rows] = await conn.query('select version() as v, database() as d');
    await conn.end();
    const row = (rows as Array<{ v: string; d: string }>)[0];
    expect(row.v).toMatch(/MariaDB/);
    expect(url.endsWith(`/${row.d}`)).toBe(true);
  });

  it('Redis is real', async () => {
    const client = new Redis(inject('services').redisUrl);
    await client.set('k', 'v');
    expect(await client.get('k')).toBe('v');
    client.disconnect();
  });

  it('stops exactly the server it started', async () => {
    const redis = await startRedis();
    expect(await canConnect(redis.port)).toBe(true);
    await redis.stop();
    expect(await canConnect(redis.port)).toBe(false);
    const shared = new URL(inject('services').redisUrl);
    expect(await canConnect(Number(shared.port))).toBe(true);
  });
});
