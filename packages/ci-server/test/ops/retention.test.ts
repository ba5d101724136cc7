// The retention sweeper on SQLite and PostgreSQL, with its clock moved forward instead of waiting: artifacts
// expire by their job's `expire_in` (and by age), caches go when idle or beyond a project's byte quota
// (least recently used first), runs beyond the per-pipeline count go with their files, old job logs are
// dropped per job (counted in service_retention_dropped_log_partitions_total), the log-bytes quota drops the
// oldest logs, a deleted project's files leave the storage backend, and the admin route reports the pass.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_QUOTAS, type Quotas } from '../../src/retention/retention-settings.js';
import { RetentionSweeper } from '../../src/retention/retention-sweeper.js';
import { applyAndGetPipelines, STORES } from '../api-helpers.js';
import { type DataFixture, lines, startDataFixture } from '../execution-data/fixture.js';

const DAY = 86_400_000;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
async function* once(data: Buffer): AsyncGenerator<Uint8Array> {
  yield data;
}
const EXPIRING = `name: expiring
stages: [build]
jobs:
  compile:
    stage: build
    script: [make]
    artifacts: {paths: [dist], expire_in: 1h}
`;

describe.each(STORES)('retention sweeper on %s', (kind) => {
  let f: DataFixture;
  beforeAll(async () => {
    f = await startDataFixture(kind);
  });
  afterAll(() => f.server.close());

  const sweeper = (quotas: Partial<Quotas>, nowMs = Date.now()) =>
    new RetentionSweeper({
      db: f.server.database.db,
      storage: f.server.execution.storage,
      quotas: { ...DEFAULT_QUOTAS, ...quotas },
      archives: f.server.execution.archives,
      droppedPartitions: (n) => f.server.execution.metrics.retentionDroppedLogPartitions.inc(n),
      now: () => new Date(nowMs),
    });
  const artifact = async (jobRunId: string, text: string) => {
    const data = Buffer.from(text);
    return f.server.execution.artifacts.storeArtifact(
      { jobRunId, path: `dist/${text}.txt`, sizeBytes: data.length, contentSha256: sha(data) },
      once(data),
    );
  };
  const blobExists = async (key: string) => (await f.server.execution.storage.read(key)) !== undefined;
  const droppedMetric = async () => {
    const text = (await f.server.app.inject({ url: '/metrics' })).body;
    return Number(/service_retention_dropped_log_partitions_total (\d+)/.exec(text)?.[1] ?? 0);
  };

  it('expires artifacts by expire_in and evicts idle and oversized caches', async () => {
    const pipelines = await applyAndGetPipelines(f.api, 'exp', [EXPIRING]);
    const run = await f.api.post(`/api/v1/pipelines/${pipelines.expiring}/trigger`);
    const job = await f.db
      .selectFrom('job_runs')
      .select('id')
      .where('run_id', '=', run.body.run_id)
      .executeTakeFirstOrThrow();
    const short = await artifact(job.id, 'short');
    const { compile } = await f.newRun();
    const kept = await artifact(compile, 'kept');
    const row = await f.db
      .selectFrom('artifacts')
      .select('expires_at')
      .where('id', '=', short.id)
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at!) - Date.parse(short.created_at)).toBe(3_600_000);

    const caches = f.server.execution.caches;
    for (const key of ['idle', 'old', 'new']) await caches.save('shop', key, once(Buffer.from('12345678')));
    const setUsed = (key: string, at: number) =>
      f.db
        .updateTable('cache_entries')
        .set({ last_used_at: new Date(at).toISOString() })
        .where('key', '=', key)
        .execute();
    await setUsed('idle', Date.now() - 20 * DAY);
    await setUsed('old', Date.now() - 2 * DAY);

    const report = await sweeper({ cache_bytes_per_project: 10 }, Date.now() + 2 * 3_600_000).sweep();
    expect(report.errors).toEqual([]);
    expect(report.removed.artifacts).toBe(1);
    expect(report.removed.cache_entries).toBe(2);
    const left = await f.db.selectFrom('artifacts').select('id').execute();
    expect(left.map((a) => a.id)).toContain(kept.id);
    expect(left.map((a) => a.id)).not.toContain(short.id);
    expect(await blobExists(`artifacts/${run.body.run_id}/${short.id}`)).toBe(false);
    const keys = await f.db.selectFrom('cache_entries').select('key').execute();
    expect(keys.map((k) => k.key)).toEqual(['new']);
  });

  it('keeps N runs per pipeline with their files, drops old logs per job and beyond the byte quota', async () => {
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const r = await f.newRun();
      await f.server.execution.logs.appendLogBatch(r.compile, lines(5, 1, `run${i}`));
      const a = await artifact(r.compile, `run${i}`);
      await f.finishRun(r.runId);
      runs.push({ ...r, artifact: a.id });
    }
    const report = await sweeper({ runs_per_pipeline: 2 }).sweep();
    expect(report.removed.runs).toBeGreaterThanOrEqual(1);
    const left = await f.db.selectFrom('runs').select('id').where('pipeline_id', '=', f.pipelineId).execute();
    const ids = left.map((r) => r.id);
    expect(ids).toContain(runs[2].runId);
    expect(ids).toContain(runs[1].runId);
    expect(ids).not.toContain(runs[0].runId);
    expect(await blobExists(`artifacts/${runs[0].runId}/${runs[0].artifact}`)).toBe(false);
    expect(await blobExists(`artifacts/${runs[2].runId}/${runs[2].artifact}`)).toBe(true);

    // Byte quota: 40 bytes of log text left means the older run's job log (5 × 9 bytes) goes first.
    const bytes = await sweeper({ runs_per_pipeline: 1000, log_bytes: 50 }).sweep();
    expect(bytes.removed.dropped_log_partitions).toBe(1);
    expect(await f.server.execution.logs.readJobLogs(runs[1].compile, 0, 10)).toEqual([]);
    expect(await f.server.execution.logs.readJobLogs(runs[2].compile, 0, 10)).toHaveLength(5);

    const before = await droppedMetric();
    const aged = await sweeper({ runs_per_pipeline: 1000 }, Date.now() + 40 * DAY).sweep();
    expect(aged.removed.dropped_log_partitions).toBeGreaterThanOrEqual(1);
    expect(aged.removed.runs).toBe(0);
    expect(await droppedMetric()).toBe(before + aged.removed.dropped_log_partitions);
    expect(await f.server.execution.logs.readJobLogs(runs[2].compile, 0, 10)).toEqual([]);
  });

  it("deletes a deleted project's files and reports the pass", async () => {
    const pipelines = await applyAndGetPipelines(f.api, 'gone', [EXPIRING]);
    const run = await f.api.post(`/api/v1/pipelines/${pipelines.expiring}/trigger`);
    const job = await f.db
      .selectFrom('job_runs')
      .select('id')
      .where('run_id', '=', run.body.run_id)
      .executeTakeFirstOrThrow();
    const a = await artifact(job.id, 'gone');
    await f.server.execution.caches.save('gone', 'deps', once(Buffer.from('cache')));
    const cacheKey = await f.db
      .selectFrom('cache_entries')
      .select('storage_key')
      .where('key', '=', 'deps')
      .executeTakeFirstOrThrow();
    expect((await f.api.delete('/api/v1/projects/gone')).status).toBe(204);
    const pending = await f.db
      .selectFrom('blob_deletions' as any)
      .select('prefix')
      .execute();
    expect(pending.length).toBeGreaterThanOrEqual(2);

    const report = await f.server.retention.sweeper.sweep();
    expect(report.removed.blob_prefixes).toBeGreaterThanOrEqual(2);
    expect(await blobExists(`artifacts/${run.body.run_id}/${a.id}`)).toBe(false);
    expect(await blobExists(`caches/${cacheKey.storage_key}`)).toBe(false);
    expect(
      await f.db
        .selectFrom('blob_deletions' as any)
        .select('prefix')
        .execute(),
    ).toEqual([]);

    const res = await f.api.get('/api/v1/admin/retention');
    expect(res.status).toBe(200);
    expect(res.body.last_run_at).toBe(report.finished_at);
    expect(res.body.last_run.removed.blob_prefixes).toBe(report.removed.blob_prefixes);
    expect(res.body.quotas.runs_per_pipeline).toBe(500);
  });
});
