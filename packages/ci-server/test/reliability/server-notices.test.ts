// Control-plane notices in a job's log (issue 12): they have their own sequence space, so the agent's line
// with the next seq is never discarded as a duplicate of a notice, and readers show each notice where it was
// written (run cursor order), on SQLite and PostgreSQL. RunDetail says why a job failed (failure_reason).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogStore } from '../../src/logs/index.js';
import { failureReason } from '../../src/services/run-views.js';
import { STORES } from '../api-helpers.js';
import { type DataFixture, startDataFixture } from '../execution-data/fixture.js';

const batch = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => ({
    seq: from + i,
    stream: 'stdout',
    atMs: Date.UTC(2025, 0, 1) + from + i,
    text: `agent line ${from + i}`,
  }));

describe.each(STORES)('server notices on %s', (kind) => {
  let f: DataFixture;
  let store: LogStore;
  beforeAll(async () => {
    f = await startDataFixture(kind, 'notices');
    store = f.server.execution.logs;
  });
  afterAll(() => f.server.close());

  it('a notice takes no agent seq: every agent line is kept, the notice sits where it was written', async () => {
    const { runId, compile } = await f.newRun();
    await store.appendLogBatch(compile, batch(1, 3));
    await store.appendNotice(compile, '[ci] first notice');
    await store.appendNotice(compile, '[ci] second notice');
    // The agent goes on with seq 4, the seq a notice used to take.
    expect(await store.appendLogBatch(compile, batch(4, 6))).toEqual({
      ackedSeq: 6,
      stored: 3,
      truncated: false,
    });
    expect(await store.ackedSeq(compile)).toBe(6);

    const stream = await store.readRunLogs(runId, 0, 100);
    expect(stream.map((l) => [l.seq, l.text])).toEqual([
      [1, 'agent line 1'],
      [2, 'agent line 2'],
      [3, 'agent line 3'],
      [-1, '[ci] first notice'],
      [-2, '[ci] second notice'],
      [4, 'agent line 4'],
      [5, 'agent line 5'],
      [6, 'agent line 6'],
    ]);
    const detail = await f.api.get(`/api/v1/runs/${runId}?logs=4`);
    const job = detail.body.stages[0].jobs.find((j: { id: string }) => j.id === compile);
    expect(job.logs.map((l: { text: string }) => l.text)).toEqual([
      '[ci] second notice',
      'agent line 4',
      'agent line 5',
      'agent line 6',
    ]);
    const all = await f.api.get(`/api/v1/runs/${runId}?logs=100`);
    const whole = all.body.stages[0].jobs.find((j: { id: string }) => j.id === compile);
    expect(whole.logs).toHaveLength(8);
    expect(whole.logs[3]).toMatchObject({ seq: -1, stream: 'system', text: '[ci] first notice' });
  });
});

describe('failure_reason', () => {
  it('says why a job did not succeed, and nothing otherwise', () => {
    const base = { error: null, exit_code: null, rejected_by: null };
    expect(failureReason({ ...base, status: 'success', exit_code: 0 })).toBeNull();
    expect(failureReason({ ...base, status: 'running' })).toBeNull();
    expect(failureReason({ ...base, status: 'failed', error: 'timed out after 2s' })).toBe(
      'timed out after 2s',
    );
    expect(failureReason({ ...base, status: 'failed', exit_code: 3 })).toBe('the script exited with code 3');
    expect(failureReason({ ...base, status: 'failed', rejected_by: 'ann' })).toBe(
      'the gate was rejected by ann',
    );
    expect(failureReason({ ...base, status: 'canceled' })).toBe('canceled');
  });
});
