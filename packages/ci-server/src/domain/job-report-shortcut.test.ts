// The shortcut rule for agent reports against the state machine: over a table of runs in every reachable
// moment, each job and each result, whenever the rule says a report touches only the job, the full
// transition sets that job's status and nothing else, with no effect; and the rule does say so for the
// common case (a job of a matrix whose siblings still run).
import { describe, expect, it } from 'vitest';
import {
  finishTouchesOnlyTheJob,
  type JobReportFacts,
  startIsOneStatement,
  startTouchesOnlyTheJob,
} from './job-report-shortcut.js';
import { GATED, MATRIX, MATRIX_AND_NEEDS_MOMENTS, type Moment, ok, play } from './run.fixture.js';
import { currentJobs, isTerminalJob, onJobFinished, onJobStarted } from './run-state.js';
import type { JobResult, RunSnapshot } from './run-types.js';

function facts(run: RunSnapshot, jobId: string): JobReportFacts {
  const stage = run.stages.find((s) => s.jobs.some((j) => j.id === jobId))!;
  const row = stage.jobs.find((j) => j.id === jobId)!;
  const current = currentJobs(stage);
  return {
    jobStatus: row.status,
    runStarted:
      run.status === 'running' &&
      run.stages.some((s) =>
        s.jobs.some((j) => !['created', 'queued', 'skipped', 'canceled'].includes(j.status)),
      ),
    cancelRequested: run.cancelRequested === true,
    otherActiveInStage: current.filter((j) => j.id !== jobId && !isTerminalJob(j.status)).length,
    waitingOnNeedsInStage: current.filter((j) => j.status === 'created' && j.needs.length > 0).length,
  };
}

/** The snapshot with only `jobId`'s status changed. */
function onlyJob(run: RunSnapshot, jobId: string, status: string): RunSnapshot {
  const copy = structuredClone(run);
  for (const s of copy.stages) for (const j of s.jobs) if (j.id === jobId) j.status = status as never;
  return copy;
}

const moments: Moment[] = [
  ['matrix started', MATRIX, [['start']]],
  ['matrix, two running', MATRIX, [['start'], ['run', 'm [N=1]'], ['run', 'm [N=2]']]],
  ...MATRIX_AND_NEEDS_MOMENTS,
  ['a gate waits', GATED, [['start'], ['run', 'a'], ['finish', 'a', 'success']]],
];

describe('report shortcuts agree with the state machine', () => {
  const results: JobResult[] = ['success', 'failed', 'canceled'];
  it.each(moments)('%s', (_name, yaml, steps) => {
    const run = play(yaml, steps);
    const jobs = run.stages.flatMap((s) => s.jobs);
    for (const job of jobs) {
      const f = facts(run, job.id);
      if (startTouchesOnlyTheJob(f)) {
        const t = ok(onJobStarted(run, job.id));
        expect(t.effects).toEqual([]);
        expect(structuredClone({ ...t, effects: undefined })).toEqual({
          ...onlyJob(run, job.id, 'running'),
          effects: undefined,
        });
      }
      if (startIsOneStatement(f)) {
        // The job's status, and the stored run status becomes running (the first start), nothing else.
        const t = ok(onJobStarted(run, job.id));
        expect(t.effects).toEqual([]);
        // The machine's run is running (the store's `queued` until a job starts, running from this one on).
        expect(t.status).toBe('running');
        expect(structuredClone({ ...t, effects: undefined })).toEqual({
          ...onlyJob(run, job.id, 'running'),
          effects: undefined,
        });
      }
      for (const result of results) {
        if (!finishTouchesOnlyTheJob(f, result)) continue;
        const t = ok(onJobFinished(run, job.id, result));
        expect(t.effects).toEqual([]);
        expect(structuredClone({ ...t, effects: undefined })).toEqual({
          ...onlyJob(run, job.id, result),
          effects: undefined,
        });
      }
    }
  });

  it('takes the shortcut for a matrix job whose siblings still run, not for the last one', () => {
    const run = play(MATRIX, [['start'], ['run', 'm [N=1]'], ['run', 'm [N=2]']]);
    const [m1, m2, m3] = run.stages[0].jobs.map((j) => j.id);
    expect(startTouchesOnlyTheJob(facts(run, m3))).toBe(true);
    expect(finishTouchesOnlyTheJob(facts(run, m1), 'success')).toBe(true);
    expect(finishTouchesOnlyTheJob(facts(run, m1), 'failed')).toBe(false);
    const last = play(MATRIX, [
      ['start'],
      ['run', 'm [N=1]'],
      ['run', 'm [N=2]'],
      ['run', 'm [N=3]'],
      ['finish', 'm [N=1]', 'success'],
      ['finish', 'm [N=3]', 'success'],
    ]);
    expect(finishTouchesOnlyTheJob(facts(last, m2), 'success')).toBe(false);
    // Before any job started, the first start moves the run (stored queued → running): no shortcut.
    expect(startTouchesOnlyTheJob(facts(play(MATRIX, [['start']]), m1))).toBe(false);
    const cancel = play(MATRIX, [['start'], ['run', 'm [N=1]'], ['cancel']]);
    expect(startTouchesOnlyTheJob(facts(cancel, m2))).toBe(false);
  });
});
