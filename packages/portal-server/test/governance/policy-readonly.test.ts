// The database as the last line: readOnlyProvider makes PostgreSQL, MariaDB, SQLite, libSQL and DuckDB refuse
// writes themselves (READ ONLY transactions, PRAGMA query_only), on single statements and on sessions, and leaves
// nothing behind on pooled connections (the next ordinary statement may write again).
import { join } from 'node:path';
import { createMariadbDatabase, createPostgresDatabase, tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readOnlyMode, readOnlyProvider } from '../../src/governance/read-only.js';
import type { ConnectionDescriptor, Provider } from '../../src/providers/types.js';
import { descriptorFromUrl, type Harness, harness } from '../query/harness.js';

let h: Harness;
const targets: Array<{
  name: string;
  descriptor: () => ConnectionDescriptor;
  create: string;
  write: string;
}> = [];
let pgUrl = '';
let myUrl = '';

beforeAll(async () => {
  h = await harness();
  pgUrl = await createPostgresDatabase(inject('services').postgresUrl);
  myUrl = await createMariadbDatabase(inject('services').mariadbUrl);
});
afterAll(() => h?.close());

targets.push(
  {
    name: 'postgres',
    descriptor: () => descriptorFromUrl(pgUrl, 'postgres'),
    create: 'CREATE TABLE t (a int)',
    write: 'INSERT INTO t VALUES (1)',
  },
  {
    name: 'mariadb',
    descriptor: () => descriptorFromUrl(myUrl, 'mysql'),
    create: 'CREATE TABLE t (a int) ENGINE=InnoDB',
    write: 'INSERT INTO t VALUES (1)',
  },
  {
    name: 'sqlite',
    descriptor: () => ({
      id: 'ro-sqlite',
      type: 'sqlite',
      database: join(tempDir('portal-ro-'), 'ro.sqlite'),
    }),
    create: 'CREATE TABLE t (a int)',
    write: 'INSERT INTO t VALUES (1)',
  },
  {
    name: 'libsql',
    descriptor: () => ({
      id: 'ro-libsql',
      type: 'libsql',
      database: join(tempDir('portal-ro-'), 'ro.libsql.db'),
    }),
    create: 'CREATE TABLE t (a int)',
    write: 'INSERT INTO t VALUES (1)',
  },
  {
    name: 'duckdb',
    descriptor: () => ({
      id: 'ro-duckdb',
      type: 'duckdb',
      database: join(tempDir('portal-ro-'), 'ro.duckdb'),
    }),
    create: 'CREATE TABLE t (a int)',
    write: 'INSERT INTO t VALUES (1)',
  },
);

const opts = { maxRows: 100 };

describe.each(targets)('readOnlyProvider on $name', (t) => {
  it('lets the engine refuse writes on statements and sessions, and leaves pooled connections writable', async () => {
    // The descriptor is built once so the provider (and its pool) is the same across calls.
    const d = { ...t.descriptor(), id: `ro-${t.name}` };
    await h.deps.providers.use(d, async (p: Provider) => {
      await p.query(t.create, [], opts);
      const ro = readOnlyProvider(p);
      await expect(ro.query(t.write, [], opts)).rejects.toThrow(/read.?only|readonly/i);
      // DDL too (on MariaDB a READ ONLY transaction alone would let it through after its implicit commit).
      await expect(ro.query('CREATE TABLE t2 (a int)', [], opts)).rejects.toThrow(/read.?only|readonly/i);
      await expect(ro.query('DROP TABLE t', [], opts)).rejects.toThrow(/read.?only|readonly/i);
      expect((await ro.query('SELECT count(*) AS n FROM t', [], opts)).rows).toEqual([{ n: 0 }]);

      const s = await ro.openSession();
      try {
        await expect(s.query(t.write, [], opts)).rejects.toThrow(/read.?only|readonly/i);
      } finally {
        await s.close();
      }
      // A transaction on a read-only session stays read-only after commit.
      const tx = await ro.openSession();
      try {
        await tx.begin();
        await tx.commit();
        await expect(tx.query(t.write, [], opts)).rejects.toThrow(/read.?only|readonly/i);
      } finally {
        await tx.close();
      }
      // Every pooled connection may write again.
      for (let i = 0; i < 3; i++) await p.query(t.write, [], opts);
      expect(Number((await p.query('SELECT count(*) AS n FROM t', [], opts)).rows[0].n)).toBe(3);
    });
  });
});

describe('readOnlyMode', () => {
  it('names the switch per engine and leaves engines without one alone', () => {
    expect(readOnlyMode('postgres')).toBe('transaction');
    expect(readOnlyMode('mysql')).toBe('session');
    expect(readOnlyMode('libsql')).toBe('pragma');
    expect(readOnlyMode('duckdb')).toBe('begin-read-only');
    expect(readOnlyMode('leveldb')).toBeUndefined();
    const fake = { engine: 'leveldb' } as Provider;
    expect(readOnlyProvider(fake)).toBe(fake);
  });
});
