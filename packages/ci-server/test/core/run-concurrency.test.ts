// Concurrency control through the API on SQLite and PostgreSQL (locks, the group sequence's upsert): a
// serial run waits and is released when the run before it is canceled; cancel-superseded cancels the older
// queued run of the same ref and names its successor; the sweep releases a queue whose release was missed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { applyAndGetPipelines, type Client, client, STORES, startApiServer } from '../api-helpers.js';
import { dbOf } from './agent-sim.js';

const pipeline = (name: string, concurrency: string) => `name: ${name}
concurrency: ${concurrency}
stages: [s]
jobs:
  j: {stage: s, script: [true]}`;

describe.each(STORES)('run concurrency on %s', (store) => {
  let server: CiServer;
  let api: Client;
  let ids: Record<string, string>;
  beforeAll(async () => {
    server = await startApiServer(store);
    api = client(server);
    ids = await applyAndGetPipelines(api, 'conc', [
      pipeline('serial', 'serial'),
      pipeline('latest', 'cancel-superseded'),
    ]);
  });
  afterAll(async () => server?.close());

  const trigger = async (id: string, body?: unknown) =>
    (await api.post(`/api/v1/pipelines/${id}/trigger`, body)).body.run_id as string;
  const detail = async (id: string) => (await api.get(`/api/v1/runs/${id}?logs=0`)).body;

  it('serial: the next run waits, then starts when the one before it is canceled', async () => {
    const [a, b, c] = [await trigger(ids.serial), await trigger(ids.serial), await trigger(ids.serial)];
    expect((await detail(a)).waiting).toBeNull();
    expect((await detail(a)).stages[0].jobs[0].status).toBe('queued');
    expect((await detail(b)).waiting).toMatchObject({ reason: 'concurrency', run_id: a });
    expect((await detail(b)).stages[0].jobs[0].status).toBe('created');
    expect((await detail(c)).waiting.run_id).toBe(b);
    expect((await api.post(`/api/v1/runs/${a}/cancel`)).status).toBe(202);
    await server.concurrency.idle();
    const released = await detail(b);
    expect(released.waiting).toBeNull();
    expect(released.stages[0].jobs[0].status).toBe('queued');
    expect((await detail(c)).waiting.run_id).toBe(b);
    // A missed release (a crash after the finish) is caught by the sweep.
    await dbOf(server).updateTable('runs').set({ status: 'canceled' }).where('id', '=', b).execute();
    await server.concurrency.sweep();
    expect((await detail(c)).stages[0].jobs[0].status).toBe('queued');
  });

  it('cancel-superseded: the older queued run of the same ref is canceled, naming its successor', async () => {
    const older = await trigger(ids.latest, { git_ref: 'main' });
    const other = await trigger(ids.latest, { git_ref: 'dev' });
    const newer = await trigger(ids.latest, { git_ref: 'main' });
    const canceled = await detail(older);
    expect(canceled.status).toBe('canceled');
    expect(canceled.superseded_by).toEqual({ run_id: newer, counter: 3, pipeline_name: 'latest' });
    expect((await detail(other)).status).toBe('queued');
    expect((await detail(newer)).superseded_by).toBeNull();
  });
});
