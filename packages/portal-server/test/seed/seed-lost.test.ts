// A seed run whose worker dies: a real child process running the seed job (fixtures/seed-worker.ts) is
// SIGKILLed after its first table; once the job's lease lapses the run ends `failed` with the finished
// table kept `done` and every other table marked `lost`, a `data_seed` lost event is recorded, and the
// datasource accepts a new run.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { waitFor } from '@app/kit';
import { createPostgresDatabase } from '@app/kit/testing';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { JWT_SECRET } from '../auth/helpers.js';
import { type BotHarness, botPortal, datasourceEntry } from '../bot/harness.js';
import { adminGet, adminPost, sqlOn } from './helpers.js';
import { schemaSql, TABLE_COUNT } from './schema.js';

let h: BotHarness;
let url: string;

beforeAll(async () => {
  url = await createPostgresDatabase(inject('services').postgresUrl, 'seedlost');
  await sqlOn('postgres', url, schemaSql('postgres'));
  h = await botPortal({ datasources: () => datasourceEntry('target', 'postgres', url) });
}, 360_000);

afterAll(async () => {
  await h?.close();
});

it('marks every table when the worker running the seed is killed', async () => {
  const queued = await adminPost(h, '/api/admin/seed-data/run', { datasourceId: 'target' });
  expect(queued.statusCode, queued.body).toBe(202);
  const runId = queued.json().run.id as string;
  const settings = h.server.settings;
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'fixtures', 'seed-worker.ts'),
      settings.storageSqlitePath,
      settings.dataDir,
      settings.datasourcesFile as string,
      JWT_SECRET,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal)),
  );
  // Waits for the worker to print `text`; a worker that dies first fails the test at once with its exit code.
  const printed = (text: string, what: string) => {
    const died = exited.then((signal) => {
      throw new Error(`the seed worker exited (${child.exitCode ?? signal}) before ${what}: ${out}`);
    });
    died.catch(() => undefined); // the planned SIGKILL later settles it; only the race reads it
    return Promise.race([waitFor(async () => out.includes(text), { what, timeoutMs: 150_000 }), died]);
  };
  try {
    await printed('ready', 'the seed worker to start (tsx compiles the portal first)');
    await printed('paused ', 'the worker to finish its first table');
    const mid = (await adminGet(h, `/api/admin/seed-data/${runId}`)).json().run;
    expect(mid.status).toBe('running');
    const first = /paused (\S+)/.exec(out)?.[1];
    expect(mid.tables.find((t: { name: string }) => t.name === first)).toMatchObject({
      status: 'done',
      inserted: 20,
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await waitFor(
    async () => (await adminGet(h, `/api/admin/seed-data/${runId}`)).json().run.status === 'failed',
    {
      what: 'the lapsed lease to end the run',
      timeoutMs: 150_000,
    },
  );
  const run = (await adminGet(h, `/api/admin/seed-data/${runId}`)).json().run;
  expect(run.tables).toHaveLength(TABLE_COUNT);
  expect(run.tables.filter((t: { status: string }) => t.status === 'done')).toHaveLength(1);
  for (const t of run.tables.filter((x: { status: string }) => x.status !== 'done')) {
    expect(t).toMatchObject({ status: 'lost', error: expect.stringMatching(/lost/) });
  }
  expect(run.error).toMatch(/lost/);
  const events = await h.auditOf('data_seed');
  expect(events.some((e) => e.action === 'lost' && e.runId === runId)).toBe(true);
  const again = await adminPost(h, '/api/admin/seed-data/run', { datasourceId: 'target' });
  expect(again.statusCode).toBe(202);
}, 360_000);
