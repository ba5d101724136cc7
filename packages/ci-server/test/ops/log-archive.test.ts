// The log archive on SQLite and PostgreSQL: a finished job's rows become one gzip blob on the storage
// backend under the effective policy (project override `after: 0s`; global disabled; `after: 1d` not yet
// due), and every reader — per run with cursors, per job, RunDetail `logs=N`, the SSE replay with
// Last-Event-ID — answers exactly what it answered before; a late resend is dropped; an archive interrupted
// after its row was committed is finished by the next pass; the metric counts each archive job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredLogLine } from '../../src/logs/types.js';
import { STORES } from '../api-helpers.js';
import { type DataFixture, lines, parseSse, startDataFixture } from '../execution-data/fixture.js';

const strip = (l: StoredLogLine[]) => l.map((x) => [x.cursor, x.job_run_id, x.seq, x.stream, x.text]);

describe.each(STORES)('log archive on %s', (kind) => {
  let f: DataFixture;
  beforeAll(async () => {
    f = await startDataFixture(kind);
  });
  afterAll(() => f.server.close());

  const count = async (table: string, where?: [string, string]) => {
    let q = f.server.database.db.selectFrom(table as any).select((eb) => eb.fn.countAll().as('n'));
    if (where) q = q.where(where[0] as any, '=', where[1]);
    return Number(((await q.executeTakeFirstOrThrow()) as { n: unknown }).n);
  };
  const metric = async () => {
    const text = (await f.server.app.inject({ url: '/metrics' })).body;
    const m = /service_log_archive_jobs_total\{result="archived"\} (\d+)/.exec(text);
    return m ? Number(m[1]) : 0;
  };

  /** A finished run whose two jobs logged interleaved lines (so cursors of the jobs alternate). */
  async function loggedRun() {
    const { runId, compile, lint } = await f.newRun();
    const logs = f.server.execution.logs;
    for (let i = 0; i < 4; i++) {
      await logs.appendLogBatch(compile, lines(3, i * 3 + 1, 'compile'));
      await logs.appendLogBatch(lint, lines(2, i * 2 + 1, 'lint'));
    }
    await f.finishRun(runId);
    return { runId, compile, lint };
  }

  it('keeps logs in rows while archiving is off or not yet due', async () => {
    const { runId } = await loggedRun();
    expect((await f.server.retention.archiver.archiveDue()).archived).toBe(0);
    const put = await f.api.call('PUT', '/api/v1/projects/shop/log-archive', {
      override: { enabled: true, after: '1d' },
    });
    expect(put.status).toBe(200);
    expect(put.body.effective).toEqual({ enabled: true, after: '1d', after_days: 1 });
    expect((await f.server.retention.archiver.archiveDue()).archived).toBe(0);
    expect(await count('log_lines', ['run_id', runId])).toBe(20);
  });

  it('validates the override: a duration or after_days, exactly one', async () => {
    for (const bad of [
      { override: { enabled: true, after: 'soon' } },
      { override: { enabled: true, after: '1d', after_days: 1 } },
      { override: { enabled: true } },
      { override: { enabled: true, after: 5 } },
      { override: { enabled: true, after_days: 0 } },
    ]) {
      const res = await f.api.call('PUT', '/api/v1/projects/shop/log-archive', bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    }
  });

  it('archives finished jobs into blobs and every reader sees the same lines', async () => {
    const { runId, compile, lint } = await loggedRun();
    const logs = f.server.execution.logs;
    const before = await logs.readRunLogs(runId, 0, 1000);
    expect(before).toHaveLength(20);
    const pageBefore = await logs.readRunLogs(runId, 7, 5);
    const jobBefore = await logs.readJobLogs(lint, 3, 100);
    const detailBefore = (await f.api.get(`/api/v1/runs/${runId}?logs=2`)).body;
    const sseBefore = await f.server.app.inject({
      url: `/api/v1/runs/${runId}/logs/stream`,
      headers: { 'last-event-id': '11' },
    });
    const metricBefore = await metric();

    await f.api.call('PUT', '/api/v1/projects/shop/log-archive', {
      override: { enabled: true, after: '0s' },
    });
    const result = await f.server.retention.archiver.archiveDue();
    expect(result.failed).toBe(0);
    expect(result.archived).toBeGreaterThanOrEqual(2);
    expect(await metric()).toBe(metricBefore + result.archived);
    expect(await count('log_lines', ['run_id', runId])).toBe(0);
    expect(await count('log_archives', ['run_id', runId])).toBe(2);
    const keys = await f.db
      .selectFrom('log_archives' as any)
      .select(['storage_key', 'lines', 'stored_bytes', 'raw_bytes'])
      .where('job_run_id', '=', compile)
      .executeTakeFirstOrThrow();
    expect(keys).toMatchObject({ storage_key: `logs/${runId}/${compile}.jsonl.gz`, lines: 12 });
    expect(
      await f.server.execution.storage.read((keys as { storage_key: string }).storage_key),
    ).toBeDefined();

    expect(strip(await logs.readRunLogs(runId, 0, 1000))).toEqual(strip(before));
    expect(strip(await logs.readRunLogs(runId, 7, 5))).toEqual(strip(pageBefore));
    expect(strip(await logs.readJobLogs(lint, 3, 100))).toEqual(strip(jobBefore));
    expect((await f.api.get(`/api/v1/runs/${runId}?logs=2`)).body).toEqual(detailBefore);
    const sseAfter = await f.server.app.inject({
      url: `/api/v1/runs/${runId}/logs/stream`,
      headers: { 'last-event-id': '11' },
    });
    expect(parseSse(sseAfter.body)).toEqual(parseSse(sseBefore.body));
    expect(
      parseSse(sseAfter.body)
        .filter((e) => e.event === 'log')
        .map((e) => e.id),
    ).toEqual(['12', '13', '14', '15', '16', '17', '18', '19', '20']);

    // A late resend of an archived job's lines is acknowledged and dropped.
    logs.forget(compile);
    const late = await logs.appendLogBatch(compile, lines(13, 1, 'compile'));
    expect(late.stored).toBe(0);
    expect(late.ackedSeq).toBe(13);
    expect(await count('log_lines', ['run_id', runId])).toBe(0);
  });

  it('finishes an archive interrupted after its row was committed', async () => {
    const { runId, compile } = await loggedRun();
    await f.server.retention.archiver.archiveDue();
    // The process stopped before the rows were deleted: put rows back as they were.
    const archived = await f.server.execution.logs.readJobLogs(compile, 0, 100);
    await f.db
      .insertInto('log_lines')
      .values(
        archived.map((l) => ({
          job_run_id: compile,
          seq: l.seq,
          stream: l.stream,
          at: l.at,
          text: l.text,
          run_id: runId,
          run_seq: l.cursor,
        })),
      )
      .execute();
    // Readers ignore the leftover rows of an archived job, in pages too (a page read together with the
    // run's archives: the leftover rows found in it are read past, the page is never short).
    const whole = await f.server.execution.logs.readRunLogs(runId, 0, 1000);
    expect(whole).toHaveLength(20);
    const paged: StoredLogLine[] = [];
    for (let page = await f.server.execution.logs.readRunLogs(runId, 0, 3); page.length > 0; ) {
      expect(page).toHaveLength(Math.min(3, 20 - paged.length));
      paged.push(...page);
      page = await f.server.execution.logs.readRunLogs(runId, page[page.length - 1].cursor, 3);
    }
    expect(strip(paged)).toEqual(strip(whole));
    expect(await f.server.retention.archiver.finishPending()).toBe(1);
    expect(await count('log_lines', ['run_id', runId])).toBe(0);
  });
});
