// The monitoring page in a real browser against the real PostgreSQL and MariaDB of the kit harness: a
// session holding a row lock and a second one waiting for it show as "blocking" and "waiting" with the lock
// wait listed; an administrator cancels the waiting statement and ends the holding session from the page,
// which the engine's own session list (pg_stat_activity, PROCESSLIST) confirms. A user sees the sessions
// without controls, and the server refuses them the session control (403, audited).
import { createMariadbDatabase, createPostgresDatabase } from '@app/kit/testing';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { datasourceEntry } from '../bot/harness.js';
import { ADMIN, startUi, type UiHarness, USER, visible } from './harness.js';

interface RawSession {
  id: number;
  run(sql: string): Promise<unknown>;
  end(): Promise<void>;
}

async function openPg(url: string): Promise<RawSession> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => undefined); // an ended session reports on its client
  await c.connect();
  const [{ pid }] = (await c.query('SELECT pg_backend_pid() AS pid')).rows;
  return { id: Number(pid), run: (s) => c.query(s), end: () => c.end().catch(() => undefined) };
}

async function openMaria(url: string): Promise<RawSession> {
  const c = await mysql.createConnection(url);
  c.on('error', () => undefined);
  const [[row]] = (await c.query('SELECT CONNECTION_ID() AS id')) as unknown as [[{ id: number }]];
  return { id: Number(row.id), run: (s) => c.query(s), end: () => c.end().catch(() => undefined) };
}

const engines = [
  {
    name: 'PostgreSQL',
    id: 'pg-mon',
    label: 'Orders PG',
    open: openPg,
    async alive(url: string, pid: number) {
      const s = await openPg(url);
      try {
        const out = (await s.run(`SELECT 1 FROM pg_stat_activity WHERE pid = ${pid}`)) as { rows: unknown[] };
        return out.rows.length > 0;
      } finally {
        await s.end();
      }
    },
  },
  {
    name: 'MariaDB',
    id: 'maria-mon',
    label: 'Orders Maria',
    open: openMaria,
    async alive(url: string, id: number) {
      const s = await openMaria(url);
      try {
        const [rows] = (await s.run(`SELECT 1 FROM information_schema.PROCESSLIST WHERE ID = ${id}`)) as [
          unknown[],
        ];
        return rows.length > 0;
      } finally {
        await s.end();
      }
    },
  },
];

describe('portal web UI: monitoring', () => {
  let ui: UiHarness;
  let admin: Page;
  const urls: Record<string, string> = {};
  const opened: RawSession[] = [];

  beforeAll(async () => {
    urls['pg-mon'] = await createPostgresDatabase(inject('services').postgresUrl, 'monui');
    urls['maria-mon'] = await createMariadbDatabase(inject('services').mariadbUrl, 'monui');
    for (const e of engines) {
      const s = await e.open(urls[e.id]);
      await s.run('CREATE TABLE accounts (id int PRIMARY KEY, balance int NOT NULL)');
      await s.run('INSERT INTO accounts (id, balance) VALUES (1, 100)');
      await s.end();
    }
    ui = await startUi(
      {},
      {
        datasources:
          datasourceEntry('pg-mon', 'postgres', urls['pg-mon'], [
            'name: Orders PG',
            'environment: development',
          ]) +
          datasourceEntry('maria-mon', 'mysql', urls['maria-mon'], [
            'name: Orders Maria',
            'environment: development',
          ]),
      },
    );
    ({ page: admin } = await ui.newPage());
    await admin.setViewportSize({ width: 1280, height: 900 });
    await ui.signIn(admin, ADMIN);
  }, 180_000);

  afterAll(async () => {
    for (const s of opened) await s.end();
    await ui?.close();
  });

  for (const engine of engines) {
    it(`shows a lock wait on ${engine.name}, cancels the waiting statement and ends the holding session`, async () => {
      const url = urls[engine.id];
      const holder = await engine.open(url);
      const waiter = await engine.open(url);
      opened.push(holder, waiter);
      await holder.run('BEGIN');
      await holder.run('UPDATE accounts SET balance = balance - 1 WHERE id = 1');
      const waiting = waiter.run('UPDATE accounts SET balance = balance + 1 WHERE id = 1').then(
        () => 'finished',
        (err: Error) => err.message,
      );

      // From the workspace: the datasource's Monitor link.
      await admin.goto('/');
      await admin.getByRole('button', { name: new RegExp(`^${engine.label}`) }).click();
      await visible(admin.getByRole('heading', { name: engine.label, level: 1 }));
      await admin.getByRole('link', { name: 'Monitor', exact: true }).click();
      await visible(admin.getByRole('heading', { name: 'Monitoring', level: 1 }));
      expect(new URL(admin.url()).search).toBe(`?datasource=${engine.id}`);

      const sessions = admin.getByRole('table', { name: 'Sessions' });
      const waiterRow = sessions.getByRole('row', { name: `Session ${waiter.id}` });
      const holderRow = sessions.getByRole('row', { name: `Session ${holder.id}` });
      // The reading refreshes by itself; Refresh asks at once (the wait may start after the first reading).
      await expect
        .poll(async () => {
          await admin.getByRole('button', { name: 'Refresh' }).click();
          return waiterRow.locator('.badge', { hasText: 'waiting' }).count();
        })
        .toBe(1);
      await visible(holderRow.locator('.badge', { hasText: 'blocking' }));
      const locks = admin.getByRole('table', { name: 'Lock waits' });
      await visible(locks.getByTestId('lock-blockers').filter({ hasText: String(holder.id) }));
      expect(await waiterRow.textContent()).toContain('UPDATE accounts SET balance = balance + 1');
      await ui.screenshot(admin, `monitoring-${engine.id}-locks`);

      await waiterRow.getByRole('button', { name: `Cancel statement ${waiter.id}` }).click();
      await waiterRow.getByRole('button', { name: 'Confirm' }).click();
      await visible(
        admin.getByRole('status').filter({ hasText: `The statement of session ${waiter.id} was cancelled.` }),
      );
      expect(await waiting).toMatch(/cancel|interrupt/i);
      expect(await engine.alive(url, waiter.id)).toBe(true);

      await holderRow.getByRole('button', { name: `End session ${holder.id}` }).click();
      await holderRow.getByRole('button', { name: 'Confirm' }).click();
      await visible(admin.getByRole('status').filter({ hasText: `Session ${holder.id} was ended.` }));
      await expect.poll(() => engine.alive(url, holder.id)).toBe(false);
      // The page reads again: the ended session is gone from the list.
      await expect.poll(() => holderRow.count()).toBe(0);
      await ui.screenshot(admin, `monitoring-${engine.id}-ended`);

      // The holder's transaction ended with it: the balance is untouched.
      const check = await engine.open(url);
      opened.push(check);
      const out = await check.run('SELECT balance FROM accounts WHERE id = 1');
      const rows = engine.id === 'pg-mon' ? (out as { rows: unknown[] }).rows : (out as unknown[][])[0];
      expect(rows).toEqual([{ balance: 100 }]);
    }, 120_000);
  }

  it('shows a user the sessions without controls; the server refuses them session control, audited', async () => {
    const victim = await openPg(urls['pg-mon']);
    opened.push(victim);
    const { page } = await ui.newPage();
    await ui.signIn(page, USER);
    await page.goto('/monitoring?datasource=pg-mon');
    const row = page
      .getByRole('table', { name: 'Sessions' })
      .getByRole('row', { name: `Session ${victim.id}` });
    await visible(row);
    expect(await row.getByRole('button').count()).toBe(0);
    await visible(page.getByText('Lock waits, engine counters and session control are for administrators.'));
    expect(await page.getByRole('table', { name: 'Lock waits' }).count()).toBe(0);
    await ui.screenshot(page, 'monitoring-user');
    // Sending the request by hand does not help.
    const status = await page.evaluate(async (pid) => {
      const res = await fetch('/api/db/maintenance', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ connection: { id: 'pg-mon' }, type: 'kill', target: String(pid) }),
      });
      return res.status;
    }, victim.id);
    expect(status).toBe(403);
    expect(await engines[0].alive(urls['pg-mon'], victim.id)).toBe(true);

    await admin.goto('/admin');
    const audit = admin.getByRole('table', { name: 'Audit events' });
    const denied = audit
      .getByRole('row')
      .filter({ hasText: 'permission_denied' })
      .filter({ hasText: USER.email });
    await visible(denied);
    expect(await denied.first().textContent()).toContain('Orders PG');
  }, 120_000);
});
