// Each statement of /api/db/query is split once and parsed once: the classifier, the auto-limit facts and
// the masking lineage share one parse (src/sql/parsers.ts) and the executor and the classifier one split
// (src/sql/split.ts). Counted on the parsers' own run counters, against real PostgreSQL and MariaDB
// datasources with masking rules (so every reader of the statement runs).
import { createMariadbDatabase, createPostgresDatabase } from '@app/kit/testing';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ManagedDatasource } from '../../src/datasources/types.js';
import { parserRuns } from '../../src/sql/parsers.js';
import { splitRuns } from '../../src/sql/split.js';
import { declared } from '../datasources/declare.js';
import { type GovernedHarness, governed } from '../governance/policy-harness.js';
import { ALICE, descriptorFromUrl } from '../query/harness.js';

const CREATE = 'CREATE TABLE customers (id int PRIMARY KEY, name varchar(50), email varchar(100))';
const SEED = "INSERT INTO customers VALUES (1, 'Ann', 'ann@example.com'), (2, 'Ben', 'ben@example.org')";

let h: GovernedHarness;

beforeAll(async () => {
  const pgUrl = await createPostgresDatabase(inject('services').postgresUrl);
  const myUrl = await createMariadbDatabase(inject('services').mariadbUrl);
  const pc = new pg.Client({ connectionString: pgUrl });
  await pc.connect();
  for (const s of [CREATE, SEED]) await pc.query(s);
  await pc.end();
  const mc = await mysql.createConnection(myUrl);
  for (const s of [CREATE, SEED]) await mc.query(s);
  await mc.end();
  const managed = (id: string, connection: Record<string, unknown>): ManagedDatasource =>
    declared(id, connection, { masking: [{ column: 'customers.email', rule: 'full' }], guardrails: true });
  h = await governed([
    managed('pg', descriptorFromUrl(pgUrl, 'postgres')),
    managed('maria', descriptorFromUrl(myUrl, 'mysql')),
  ]);
});
afterAll(() => h?.close());

describe('one split and one parse per statement on /api/db/query', () => {
  it.each([
    ['pg', 'pg'],
    ['maria', 'nsp'],
  ] as const)('%s: classifier, auto-limit and masking lineage share the parse', async (id, parser) => {
    // A text no earlier request used, so nothing is remembered from before.
    const sql = `SELECT id, email AS contact FROM customers WHERE id > 0 AND name <> '${id}-once'`;
    const parsesBefore = { ...parserRuns };
    const splitsBefore = splitRuns.count;
    const r = await h.post('/api/db/query', { connectionId: id, sql }, ALICE);
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    // Every reader did its work: the rows came back limited (auto-limit read the facts) and masked.
    expect(body.rows).toHaveLength(2);
    expect(JSON.stringify(body.rows)).not.toContain('@example');
    expect(parserRuns[parser] - parsesBefore[parser]).toBe(1);
    expect(splitRuns.count - splitsBefore).toBe(1);
  });

  it('a script of two statements is split once and each statement parsed once', async () => {
    const sql =
      "SELECT name FROM customers WHERE id = 1;\nSELECT email FROM customers WHERE name = 'two-once'";
    const before = parserRuns.pg;
    const splitsBefore = splitRuns.count;
    const r = await h.post('/api/db/multi-query', { connectionId: 'pg', sql }, ALICE);
    expect(r.statusCode, r.body).toBe(200);
    expect(parserRuns.pg - before).toBe(2);
    expect(splitRuns.count - splitsBefore).toBe(1);
  });
});
