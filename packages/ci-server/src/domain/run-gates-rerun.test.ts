// Run state machine: gates (approve, reject, timeout), job reruns, and the spec transition table row by row.
import { describe, expect, it } from 'vitest';
import { GATED, id, ids, ok, play, type Step, show, TWO_STAGES } from './run.fixture.js';
import { changedJobs, changedStages } from './run-diff.js';
import { approveGate, cancelRun, onJobFinished, rejectGate, rerunJob } from './run-state.js';
import type { RunSnapshot, Transition } from './run-types.js';

describe('gates (POST /job_runs/{id}/approve and /reject)', () => {
  const atGate: Step[] = [['start'], ['finish', 'a', 'success']];
  it.each<[string, Step[], string]>([
    [
      'one of two approvals keeps it waiting',
      [...atGate, ['approve', 'gate', 'ann']],
      'running | build:success[a=success] | deploy:running[gate=awaiting_approval ship=created]',
    ],
    [
      'two distinct approvals release it and the flow continues',
      [...atGate, ['approve', 'gate', 'ann'], ['approve', 'gate', 'bob']],
      'running | build:success[a=success] | deploy:running[gate=success ship=queued]',
    ],
    [
      'reject fails the gate and the run',
      [...atGate, ['reject', 'gate', 'ann']],
      'failed(cancel) | build:success[a=success] | deploy:failed[gate=failed ship=canceled]',
    ],
    [
      'an approval timeout cancels the run',
      [...atGate, ['expire', 'gate']],
      'canceled(cancel) | build:success[a=success] | deploy:canceled[gate=canceled ship=canceled]',
    ],
  ])('%s', (_name, steps, expected) => {
    expect(show(play(GATED, steps))).toBe(expected);
  });

  it('records who approved and who rejected', () => {
    const approved = play(GATED, [...atGate, ['approve', 'gate', 'ann'], ['approve', 'gate', 'bob']]);
    expect(approved.stages[1].jobs[0]).toMatchObject({ approvedBy: ['ann', 'bob'], requiredApprovals: 2 });
    const rejected = play(GATED, [...atGate, ['approve', 'gate', 'ann'], ['reject', 'gate', 'bob']]);
    expect(rejected.stages[1].jobs[0]).toMatchObject({
      approvedBy: ['ann'],
      rejectedBy: 'bob',
      status: 'failed',
    });
    expect(rejected.effects.map((e) => e.kind)).toEqual(['stage-finished', 'run-finished']);
  });

  it.each<[string, Step[], (r: RunSnapshot) => Transition, string]>([
    [
      'the same approver twice',
      [...atGate, ['approve', 'gate', 'ann']],
      (r) => approveGate(r, id(r, 'gate'), 'ann'),
      'conflict',
    ],
    [
      'approving a gate that is not waiting yet',
      [['start']],
      (r) => approveGate(r, id(r, 'gate'), 'ann'),
      'conflict',
    ],
    ['approving a build job', [['start']], (r) => approveGate(r, id(r, 'a'), 'ann'), 'conflict'],
    ['rejecting a build job', [['start']], (r) => rejectGate(r, id(r, 'a'), 'ann'), 'conflict'],
    [
      'approving an approved gate',
      [...atGate, ['approve', 'gate', 'ann'], ['approve', 'gate', 'bob']],
      (r) => approveGate(r, id(r, 'gate'), 'cy'),
      'conflict',
    ],
    ['an unknown job', atGate, (r) => approveGate(r, 'nope', 'ann'), 'not_found'],
  ])('refuses %s', (_name, steps, action, error) => {
    expect(action(play(GATED, steps))).toMatchObject({ ok: false, error });
  });
});

describe('job rerun (POST /job_runs/{id}/rerun)', () => {
  const failedRun: Step[] = [['start'], ['finish', 'a', 'failed'], ['finish', 'c', 'success']];

  it('adds a new attempt, reopens the run and resets what depended on it', () => {
    const before = play(TWO_STAGES, failedRun);
    const t = rerunJob(before, id(before, 'a'), ids('r'));
    if (!t.ok) throw new Error(t.message);
    expect(show(t.run)).toBe(
      'running | build:running[a=queued b=created c=success] | test:created[t=created]',
    );
    expect(t.job).toMatchObject({ id: 'r1', name: 'a', attempt: 2, status: 'queued' });
    expect(t.run.stages[0].jobs.filter((j) => j.name === 'a').map((j) => [j.attempt, j.status])).toEqual([
      [1, 'failed'],
      [2, 'queued'],
    ]);
    expect(t.effects).toEqual([
      {
        kind: 'job-attempt-created',
        job: expect.objectContaining({ id: 'r1', attempt: 2 }),
        previousId: id(before, 'a'),
      },
      { kind: 'enqueue', jobId: 'r1' },
    ]);
    const done = [
      ['finish', 'a', 'success'],
      ['finish', 'b', 'success'],
      ['finish', 't', 'success'],
    ] as const;
    let run = t.run;
    for (const [, name, result] of done) run = ok(onJobFinished(run, id(run, name), result));
    expect(show(run)).toBe(
      'success | build:success[a=success b=success c=success] | test:success[t=success]',
    );
  });

  it('reruns later stages that had run as new attempts when an early job is rerun in a finished run', () => {
    const before = play(TWO_STAGES, [
      ['start'],
      ['finish', 'a', 'success'],
      ['finish', 'b', 'success'],
      ['finish', 'c', 'success'],
      ['finish', 't', 'success'],
    ]);
    const t = rerunJob(before, id(before, 'c'), ids('r'));
    if (!t.ok) throw new Error(t.message);
    expect(show(t.run)).toBe(
      'running | build:running[a=success b=success c=queued] | test:created[t=created]',
    );
    expect(t.run.stages[1].jobs.map((j) => [j.id, j.attempt, j.status])).toEqual([
      [id(before, 't'), 1, 'success'],
      ['r2', 2, 'created'],
    ]);
    const { inserted, updated } = changedJobs(before, t.run);
    expect(inserted.map((j) => j.id)).toEqual(['r1', 'r2']);
    expect(updated).toEqual([]);
    expect(changedStages(before, t.run)).toEqual([
      { name: 'build', status: 'running' },
      { name: 'test', status: 'created' },
    ]);
  });

  it('a rerun attempt restores the retry budget and a rerun gate waits again', () => {
    const yaml =
      'stages: [s, d]\njobs:\n  a: { stage: s, script: [x], retry: 1 }\n  g: { stage: d, approval: {} }\n';
    const failed = play(yaml, [['start'], ['retry', 'a'], ['retry', 'a']]);
    const again = rerunJob(failed, id(failed, 'a'), ids('r'));
    expect(again.ok && again.job).toMatchObject({ attempt: 3, retryLeft: 1, status: 'queued' });
    const passed = play(yaml, [['start'], ['finish', 'a', 'success'], ['approve', 'g', 'ann']]);
    const gate = rerunJob(passed, id(passed, 'g'), ids('r'));
    expect(gate.ok && gate.job).toMatchObject({ attempt: 2, status: 'awaiting_approval', approvedBy: [] });
  });

  it.each<[string, string, Step[], string, 'conflict' | 'not_found']>([
    ['a job that is still queued', TWO_STAGES, [['start']], 'a', 'conflict'],
    ['a job skipped because its need failed', TWO_STAGES, failedRun, 'b', 'conflict'],
    ['a job after a failed stage', TWO_STAGES, failedRun, 't', 'conflict'],
    [
      'a job while the run is being canceled',
      TWO_STAGES,
      [['start'], ['run', 'a'], ['finish', 'c', 'success'], ['cancel']],
      'c',
      'conflict',
    ],
    [
      'an earlier job while a later stage is busy',
      TWO_STAGES,
      [['start'], ['finish', 'a', 'success'], ['finish', 'b', 'success'], ['finish', 'c', 'success']],
      'a',
      'conflict',
    ],
  ])('refuses %s', (_name, yaml, steps, job, error) => {
    const run = play(yaml, steps);
    expect(rerunJob(run, id(run, job), ids('r'))).toMatchObject({ ok: false, error });
  });

  it('refuses an unknown id, and reports on a superseded attempt are conflicts', () => {
    const run = play(TWO_STAGES, failedRun);
    expect(rerunJob(run, 'nope', ids('r'))).toMatchObject({ ok: false, error: 'not_found' });
    const t = rerunJob(run, id(run, 'a'), ids('r'));
    if (!t.ok) throw new Error(t.message);
    expect(onJobFinished(t.run, id(run, 'a'), 'success')).toMatchObject({ ok: false, error: 'conflict' });
  });
});

describe('the transition table of ci-control-plane.md, row by row', () => {
  const atGate: Step[] = [['start'], ['finish', 'a', 'success']];
  it.each<[string, () => unknown, unknown]>([
    [
      'approve: awaiting_approval → approved (job released)',
      () => show(play(GATED, [...atGate, ['approve', 'gate', 'ann'], ['approve', 'gate', 'bob']])),
      expect.stringContaining('gate=success ship=queued'),
    ],
    [
      'reject: awaiting_approval → rejected, the run becomes failed',
      () => play(GATED, [...atGate, ['reject', 'gate', 'ann']]).status,
      'failed',
    ],
    [
      'cancel: non-terminal run → cancellation requested (202)',
      () => cancelRun(play(GATED, atGate)).ok,
      true,
    ],
    [
      'cancel: finished run → conflict',
      () => cancelRun(play(GATED, [...atGate, ['reject', 'gate', 'ann']])),
      expect.objectContaining({ ok: false, error: 'conflict' }),
    ],
    [
      'job rerun: any finished job run → re-queued (201)',
      () => {
        const run = play(GATED, [...atGate, ['reject', 'gate', 'ann']]);
        const t = rerunJob(run, id(run, 'a'), ids('r'));
        return t.ok && [t.run.status, t.job.status, t.job.attempt];
      },
      ['running', 'queued', 2],
    ],
  ])('%s', (_name, actual, expected) => {
    expect(actual()).toEqual(expected);
  });
});
