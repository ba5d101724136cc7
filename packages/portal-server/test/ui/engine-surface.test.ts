// What the IDE adapts to each datasource, in a real browser (Chromium): the ticket field marked required
// where the policy asks for one (a write without it is refused in words, with it the write runs), and a
// Redis datasource (the real redis-server of the vitest global setup) whose tree shows its keys in one
// folder per key type, whose capability flags hide Explain and the SQL-only buttons, and whose commands run.
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import { Redis } from 'ioredis';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { setSql, startUi, type UiHarness, USER, visible } from './harness.js';

// A Redis database index of its own, so other tests sharing the server never see these keys.
const DB = 12;

describe('portal web UI: tickets and a Redis datasource', () => {
  let ui: UiHarness;
  let page: Page;
  let redis: Redis;

  beforeAll(async () => {
    const url = new URL(inject('services').redisUrl);
    redis = new Redis({ host: url.hostname, port: Number(url.port), db: DB });
    await redis.flushdb();
    await redis.set('greeting', 'hello');
    await redis.hset('user:1', { name: 'Ada', lang: 'en' });
    await redis.rpush('queue', 'a', 'b');
    ui = await startUi(
      {},
      {
        datasources: `  - id: cache
    name: Cache
    type: redis
    host: ${url.hostname}
    port: ${url.port}
    database: "${DB}"
    environment: development
    roles: [admin, user]
    policy: { guardrails: false }
  - id: tickets
    name: Tickets
    type: sqlite
    database: ${JSON.stringify(join(tempDir('portal-ui-tickets-'), 'tickets.db'))}
    environment: production
    roles: [admin, user]
    policy: { requireTicket: true }
`,
      },
    );
    ({ page } = await ui.newPage());
    await ui.signIn(page, USER);
  });
  afterAll(async () => {
    await ui?.close();
    await redis?.flushdb();
    redis?.disconnect();
  });

  const run = () => page.getByRole('button', { name: 'Run', exact: true }).click();

  it('marks the ticket required, refuses a write without one in words, and runs it with one', async () => {
    await page.getByRole('button', { name: /^Tickets/ }).click();
    await visible(page.getByRole('heading', { name: 'Tickets', level: 1 }));
    const ticket = page.getByLabel('Ticket');
    expect(await ticket.getAttribute('placeholder')).toBe('required for writes');
    await setSql(page, 'create table notes (id integer primary key, body text)');
    await run();
    const alert = await visible(page.getByRole('alert').filter({ hasText: /ticket/i }));
    expect(await alert.textContent()).toMatch(/ticket/i);
    await ui.screenshot(page, 'ticket-required');
    await ticket.fill('OPS-42');
    await run();
    await visible(page.getByRole('status').filter({ hasText: /Statement executed/ }));
    // The tree shows the new table after a refresh.
    await page.getByRole('button', { name: 'Refresh objects' }).click();
    const tree = page.getByRole('region', { name: 'Objects' });
    await tree.getByRole('button', { name: 'main', exact: true }).click();
    await visible(tree.getByRole('button', { name: 'notes', exact: true }));
  });

  it('shows Redis keys by type, hides what the engine lacks, and runs a command', async () => {
    await page.getByRole('button', { name: /^Cache/ }).click();
    await visible(page.getByRole('heading', { name: 'Cache', level: 1 }));
    const tree = page.getByRole('region', { name: 'Objects' });
    const db = tree.getByRole('button', { name: `db${DB}`, exact: true });
    await visible(db);
    expect(await db.textContent()).toContain('3');
    await db.click();
    for (const folder of [/^Hashes/, /^Lists/, /^Strings/])
      await visible(tree.getByRole('button', { name: folder }));
    await visible(tree.getByRole('button', { name: 'user:1', exact: true }));
    // No plans and no SQL script runner for Redis: the buttons are not offered.
    expect(await page.getByRole('button', { name: 'Explain' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Run script' }).count()).toBe(0);
    await setSql(page, 'GET greeting');
    await run();
    const grid = page.getByRole('table', { name: 'Results' });
    await visible(grid.getByRole('cell', { name: 'hello', exact: true }));
    await ui.screenshot(page, 'redis-keys');
  });
});
