// The count-based answer to `finished` against the state machine: over a table of runs in many reachable
// moments, each job and each result, whenever finishByCounts decides (`job` or `run`), the full transition
// does exactly that — the job's status, the stage's and the run's, the effects, and the counts after it —
// and nothing else. And it does decide the common cases: a matrix job beside running siblings, and the last
// job of a single-stage run.
import { describe, expect, it } from 'vitest';
import {
  matrixJobs as all,
  GATED,
  MATRIX,
  MATRIX_AND_NEEDS_MOMENTS,
  type Moment,
  ok,
  play,
  running,
} from './run.fixture.js';
import { notifyStage, onJobFinished } from './run-state.js';
import type { JobResult, RunSnapshot } from './run-types.js';
import { countStage, type FinishFacts, finishByCounts } from './stage-counts.js';

const ONE_STAGE = `stages: [build]
jobs:
  m: { stage: build, script: [x], matrix: { N: ["1", "2", "3"] }, retry: 1 }
`;

// The run's outcome fires its notification job, which must not decide the run's status again.
const NOTIFIED = `stages: [build]
jobs:
  c: { stage: build, script: [x] }
notifications:
  - on: always
    uses: notify/plugin@v1
`;

function facts(run: RunSnapshot, jobId: string): FinishFacts {
  const index = run.stages.findIndex((s) => s.jobs.some((j) => j.id === jobId));
  const stage = run.stages[index];
  return {
    jobStatus: stage.jobs.find((j) => j.id === jobId)!.status,
    stageName: stage.name,
    stageStatus: stage.status,
    counts: countStage(stage),
    lastStage: index === run.stages.length - 1,
    notification: notifyStage(run) === stage,
    cancelRequested: run.cancelRequested === true,
  };
}

/** Only the snapshot's state (play/ok attach the effects to it). */
const state = (run: RunSnapshot): RunSnapshot => {
  const { effects: _, ...rest } = run as RunSnapshot & { effects?: unknown };
  return structuredClone(rest);
};

const moments: Moment[] = [
  ...MATRIX_AND_NEEDS_MOMENTS,
  ['one stage, all running', ONE_STAGE, [['start'], ...running(all(3))]],
  [
    'one stage, last running',
    ONE_STAGE,
    [['start'], ...running(all(3)), ['finish', 'm [N=1]', 'success'], ['finish', 'm [N=2]', 'success']],
  ],
  [
    'one stage, one canceled',
    ONE_STAGE,
    [['start'], ...running(all(3)), ['finish', 'm [N=1]', 'canceled'], ['finish', 'm [N=2]', 'success']],
  ],
  [
    'one stage, a retry failed',
    ONE_STAGE,
    [
      ['start'],
      ...running(all(3)),
      ['retry', 'm [N=1]'],
      ['run', 'm [N=1]'],
      ['retry', 'm [N=1]'],
      ['finish', 'm [N=2]', 'success'],
    ],
  ],
  [
    'one stage, retried and running again',
    ONE_STAGE,
    [['start'], ...running(all(3)), ['retry', 'm [N=1]'], ['run', 'm [N=1]']],
  ],
  ['one stage, cancel under way', ONE_STAGE, [['start'], ...running(all(3)), ['cancel']]],
  ['a gate waits', GATED, [['start'], ['run', 'a']]],
  [
    'a failed run notifies',
    NOTIFIED,
    [['start'], ['run', 'c'], ['finish', 'c', 'failed'], ['run', '_notify_0']],
  ],
];

describe('finish by stage counts agrees with the state machine', () => {
  const results: JobResult[] = ['success', 'failed', 'canceled'];
  const decided = { job: 0, run: 0 };
  it.each(moments)('%s', (_name, yaml, steps) => {
    const run = play(yaml, steps);
    for (const stage of run.stages)
      for (const job of stage.jobs)
        for (const result of results) {
          const d = finishByCounts(facts(run, job.id), result);
          if (d.kind === 'full') continue;
          decided[d.kind]++;
          const t = ok(onJobFinished(run, job.id, result));
          const index = run.stages.indexOf(stage);
          // The counts after the report are the counts of the transition's stage.
          expect(countStage(t.stages[index])).toEqual(d.counts);
          const expected = state(run);
          for (const j of expected.stages[index].jobs) if (j.id === job.id) j.status = result;
          if (d.kind === 'job') {
            expect(t.effects).toEqual([]);
          } else {
            expected.stages[index].status = d.stage;
            expected.status = d.run;
            expect(t.effects).toEqual(d.effects);
          }
          expect(state(t)).toEqual(expected);
        }
  });

  it('decides the common cases without the run', () => {
    expect(decided.job).toBeGreaterThan(10);
    expect(decided.run).toBeGreaterThan(3);
    const busy = play(ONE_STAGE, [['start'], ...running(all(3))]);
    const [m1] = busy.stages[0].jobs.map((j) => j.id);
    expect(finishByCounts(facts(busy, m1), 'success').kind).toBe('job');
    expect(finishByCounts(facts(busy, m1), 'failed').kind).toBe('full');
    const last = play(ONE_STAGE, [
      ['start'],
      ...running(all(3)),
      ['finish', 'm [N=1]', 'failed'],
      ['finish', 'm [N=2]', 'success'],
    ]);
    const m3 = last.stages[0].jobs[2].id;
    expect(finishByCounts(facts(last, m3), 'success')).toMatchObject({
      kind: 'run',
      stage: 'failed',
      run: 'failed',
    });
    // A stage that succeeds and has a next one: the next stage's rows are needed.
    const two = play(MATRIX, [
      ['start'],
      ...running(all(3)),
      ['finish', 'm [N=1]', 'success'],
      ['finish', 'm [N=2]', 'success'],
    ]);
    expect(finishByCounts(facts(two, two.stages[0].jobs[2].id), 'success').kind).toBe('full');
    // The last job of the notification stage: the run stays failed, so the full transition decides.
    const notified = play(NOTIFIED, [
      ['start'],
      ['run', 'c'],
      ['finish', 'c', 'failed'],
      ['run', '_notify_0'],
    ]);
    expect(notified.status).toBe('failed');
    expect(finishByCounts(facts(notified, notified.stages[1].jobs[0].id), 'success').kind).toBe('full');
  });
});
