// The retention scheduler sweeps at its interval even when that is shorter than the archive pass (30 s):
// with a short interval, /api/v1/admin/retention reports a new `last_run_at` after each sweep, not the first
// sweep's for half a minute.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogArchiver } from '../../src/logs/archiver.js';
import { RetentionScheduler } from '../../src/retention/retention-scheduler.js';
import { DEFAULT_QUOTAS } from '../../src/retention/retention-settings.js';
import { RetentionSweeper } from '../../src/retention/retention-sweeper.js';
import { type DataFixture, startDataFixture } from '../execution-data/fixture.js';

describe('retention schedule', () => {
  let f: DataFixture;
  beforeAll(async () => {
    f = await startDataFixture('sqlite');
  });
  afterAll(() => f.server.close());

  it('reports a later last_run_at after every sweep of a short interval', async () => {
    const db = f.server.database.db;
    const sweeper = new RetentionSweeper({
      db,
      storage: f.server.execution.storage,
      quotas: DEFAULT_QUOTAS,
      archives: f.server.execution.archives,
    });
    const archiver = { archiveDue: async () => 0 } as unknown as LogArchiver;
    const scheduler = new RetentionScheduler({ db, archiver, sweeper, intervalMs: 200 });
    const seen = new Set<string>();
    scheduler.start();
    try {
      // Three different sweeps, each reported by the admin route (the archive pass alone is 30 s apart).
      while (seen.size < 3) {
        const res = await f.api.get('/api/v1/admin/retention');
        expect(res.status).toBe(200);
        if (res.body.last_run_at) seen.add(res.body.last_run_at);
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await scheduler.stop();
    }
    const times = [...seen].map((t) => Date.parse(t));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  }, 20_000);
});
