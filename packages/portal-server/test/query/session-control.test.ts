// Session control on the monitoring routes against the real PostgreSQL and MariaDB of the kit harness: a
// second session waiting on a row lock shows in `locks` with the session holding it up, an administrator
// cancels the waiting statement (`cancel`: pg_cancel_backend / KILL QUERY) and ends the holder (`kill`:
// pg_terminate_backend / KILL), which the engine's own session list confirms; anyone else gets 403, audited.
import { createMariadbDatabase, createPostgresDatabase } from '@app/kit/testing';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ADMIN, ALICE, descriptorFromUrl, eventually, type Harness, harness } from './harness.js';

/** One raw session on the engine: its id, a statement runner, and its end. */
interface RawSession {
  id: number;
  run(sql: string): Promise<unknown>;
  end(): Promise<void>;
}

interface Engine {
  type: 'postgres' | 'mysql';
  url(): Promise<string>;
  open(url: string): Promise<RawSession>;
  /** Is the session id still in the engine's session list? */
  alive(url: string, id: number): Promise<boolean>;
}

const engines: Engine[] = [
  {
    type: 'postgres',
    url: () => createPostgresDatabase(inject('services').postgresUrl, 'ctl'),
    async open(url) {
      const c = new pg.Client({ connectionString: url });
      c.on('error', () => undefined); // a terminated session reports on the client
      await c.connect();
      const [{ pid }] = (await c.query('SELECT pg_backend_pid() AS pid')).rows;
      return { id: Number(pid), run: (s) => c.query(s), end: () => c.end().catch(() => undefined) };
    },
    async alive(url, id) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        return (await c.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [id])).rows.length > 0;
      } finally {
        await c.end();
      }
    },
  },
  {
    type: 'mysql',
    url: () => createMariadbDatabase(inject('services').mariadbUrl, 'ctl'),
    async open(url) {
      const c = await mysql.createConnection(url);
      c.on('error', () => undefined);
      const [[row]] = (await c.query('SELECT CONNECTION_ID() AS id')) as unknown as [[{ id: number }]];
      return { id: Number(row.id), run: (s) => c.query(s), end: () => c.end().catch(() => undefined) };
    },
    async alive(url, id) {
      const c = await mysql.createConnection(url);
      try {
        const [rows] = await c.query('SELECT 1 FROM information_schema.PROCESSLIST WHERE ID = ?', [id]);
        return (rows as unknown[]).length > 0;
      } finally {
        await c.end();
      }
    },
  },
];

describe.each(engines)('session control on $type', (engine) => {
  let h: Harness;
  let url: string;
  let connection: ReturnType<typeof descriptorFromUrl>;
  const opened: RawSession[] = [];

  beforeAll(async () => {
    url = await engine.url();
    const setup = await engine.open(url);
    await setup.run('CREATE TABLE accounts (id int PRIMARY KEY, balance int NOT NULL)');
    await setup.run('INSERT INTO accounts (id, balance) VALUES (1, 100)');
    await setup.end();
    connection = descriptorFromUrl(url, engine.type);
    h = await harness();
  });
  afterAll(async () => {
    for (const s of opened) await s.end();
    await h?.close();
  });

  it('shows the lock wait, cancels the waiting statement and ends the holding session', async () => {
    const holder = await engine.open(url);
    const waiter = await engine.open(url);
    opened.push(holder, waiter);
    await holder.run('BEGIN');
    await holder.run('UPDATE accounts SET balance = balance - 1 WHERE id = 1');
    const waiting = waiter.run('UPDATE accounts SET balance = balance + 1 WHERE id = 1').then(
      () => 'finished',
      (err: Error) => err.message,
    );

    type Lock = { pid: number; blockedBy: number[]; mode: string; query: string };
    let locks: Lock[] = [];
    await eventually(async () => {
      const mon = await h.post('/api/db/monitoring', { connection }, ADMIN);
      expect(mon.statusCode).toBe(200);
      locks = mon.json().locks ?? [];
      return locks.some((l) => l.pid === waiter.id);
    });
    const wait = locks.find((l) => l.pid === waiter.id);
    expect(wait?.blockedBy).toContain(holder.id);
    expect(wait?.query).toMatch(/UPDATE accounts/);
    // The health reading every signed-in person may read lists both sessions.
    const health = (await h.post('/api/db/health', { connection })).json();
    const pids = health.activeSessions.map((s: { pid: number }) => s.pid);
    expect(pids).toEqual(expect.arrayContaining([holder.id, waiter.id]));

    const cancel = await h.post(
      '/api/db/maintenance',
      { connection, type: 'cancel', target: String(waiter.id) },
      ADMIN,
    );
    expect(cancel.statusCode).toBe(200);
    expect(await waiting).toMatch(/cancel|interrupt/i);
    // Cancelling ends the statement, not the session.
    expect(await engine.alive(url, waiter.id)).toBe(true);

    const kill = await h.post(
      '/api/db/maintenance',
      { connection, type: 'kill', target: String(holder.id) },
      ADMIN,
    );
    expect(kill.statusCode).toBe(200);
    await eventually(async () => !(await engine.alive(url, holder.id)));
    // The holder's transaction rolled back with it: the balance is untouched.
    const check = await engine.open(url);
    opened.push(check);
    const out = (await check.run('SELECT balance FROM accounts WHERE id = 1')) as unknown;
    const rows = engine.type === 'postgres' ? (out as { rows: unknown[] }).rows : (out as unknown[][])[0];
    expect(rows).toEqual([{ balance: 100 }]);

    const audited = h.events.filter((e) => e.action === 'maintenance' && e.result === 'success');
    expect(audited.map((e) => [e.operation, e.target, e.actor])).toEqual([
      ['cancel', String(waiter.id), ADMIN.username],
      ['kill', String(holder.id), ADMIN.username],
    ]);
  });

  it('refuses cancel and kill to everyone but administrators, audited', async () => {
    const victim = await engine.open(url);
    opened.push(victim);
    for (const type of ['cancel', 'kill']) {
      const res = await h.post('/api/db/maintenance', { connection, type, target: String(victim.id) }, ALICE);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
    }
    expect(await engine.alive(url, victim.id)).toBe(true);
    const denied = h.events.filter((e) => e.type === 'permission_denied' && e.action === 'maintenance');
    expect(denied.map((e) => [e.operation, e.actor, e.connection])).toEqual([
      ['cancel', ALICE.username, connection.id],
      ['kill', ALICE.username, connection.id],
    ]);
    expect((await h.post('/api/db/monitoring', { connection }, ALICE)).statusCode).toBe(403);
  });

  it('answers 400 for a session id that is not a number', async () => {
    const res = await h.post(
      '/api/db/maintenance',
      { connection, type: 'kill', target: '1; DROP TABLE x' },
      ADMIN,
    );
    expect(res.statusCode).toBe(400);
  });
});
