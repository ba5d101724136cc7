// Run state machine: trigger, start, needs ordering, roll-up, stage progression, retries and cancel.
import { describe, expect, it } from 'vitest';
import { GATED, id, ok, plan, play, type Step, show, TWO_STAGES } from './run.fixture.js';
import { cancelRun, onJobFinished, onJobStarted, rollUp, startRun } from './run-state.js';
import type { JobStatus } from './run-types.js';

describe('trigger: a new run', () => {
  it('is queued with every job created, matrix expanded, attempt 1', () => {
    const run = plan(
      'stages: [s]\njobs:\n  t: { stage: s, script: [x], matrix: { N: ["20", "22"] }, retry: 2 }\n',
    );
    expect(show(run)).toBe('queued | s:created[t [N=20]=created t [N=22]=created]');
    expect(run.stages[0].jobs.map((j) => [j.id, j.attempt, j.retryLeft])).toEqual([
      ['j1', 1, 2],
      ['j2', 1, 2],
    ]);
  });
});

describe('flow', () => {
  it.each<[string, string, Step[], string]>([
    [
      'start releases jobs whose needs are met',
      TWO_STAGES,
      [['start']],
      'running | build:running[a=queued b=created c=queued] | test:created[t=created]',
    ],
    [
      'a success releases dependants in the stage',
      TWO_STAGES,
      [['start'], ['finish', 'a', 'success']],
      'running | build:running[a=success b=queued c=queued] | test:created[t=created]',
    ],
    [
      'a stage that succeeded starts the next; needs across stages are met',
      TWO_STAGES,
      [['start'], ['finish', 'a', 'success'], ['finish', 'b', 'success'], ['finish', 'c', 'success']],
      'running | build:success[a=success b=success c=success] | test:running[t=queued]',
    ],
    [
      'the last stage succeeding finishes the run',
      TWO_STAGES,
      [
        ['start'],
        ['finish', 'a', 'success'],
        ['finish', 'b', 'success'],
        ['finish', 'c', 'success'],
        ['finish', 't', 'success'],
      ],
      'success | build:success[a=success b=success c=success] | test:success[t=success]',
    ],
    [
      'a failed need skips its dependants; other jobs go on; the run fails after the stage',
      TWO_STAGES,
      [['start'], ['finish', 'a', 'failed']],
      'running | build:running[a=failed b=skipped c=queued] | test:created[t=created]',
    ],
    [
      'a failed stage skips later stages and fails the run',
      TWO_STAGES,
      [['start'], ['finish', 'a', 'failed'], ['finish', 'c', 'success']],
      'failed | build:failed[a=failed b=skipped c=success] | test:skipped[t=skipped]',
    ],
    [
      'a canceled job rolls the stage up canceled',
      TWO_STAGES,
      [['start'], ['finish', 'a', 'success'], ['finish', 'b', 'canceled'], ['finish', 'c', 'success']],
      'canceled | build:canceled[a=success b=canceled c=success] | test:skipped[t=skipped]',
    ],
    [
      'failed beats canceled',
      TWO_STAGES,
      [['start'], ['finish', 'a', 'success'], ['finish', 'b', 'canceled'], ['finish', 'c', 'failed']],
      'failed | build:failed[a=success b=canceled c=failed] | test:skipped[t=skipped]',
    ],
    [
      'needs chains inside a stage run in order',
      'stages: [s]\njobs:\n  a: { stage: s, script: [x] }\n  b: { stage: s, script: [x], needs: [a] }\n  c: { stage: s, script: [x], needs: [b] }\n',
      [['start'], ['finish', 'a', 'success'], ['finish', 'b', 'success']],
      'running | s:running[a=success b=success c=queued]',
    ],
    [
      'a failure skips the whole chain behind it',
      'stages: [s]\njobs:\n  a: { stage: s, script: [x] }\n  b: { stage: s, script: [x], needs: [a] }\n  c: { stage: s, script: [x], needs: [b] }\n',
      [['start'], ['finish', 'a', 'failed']],
      'failed | s:failed[a=failed b=skipped c=skipped]',
    ],
    [
      'needs on a matrix job wait for every combination',
      'stages: [s]\njobs:\n  m: { stage: s, script: [x], matrix: { N: [1, 2] } }\n  after: { stage: s, script: [x], needs: [m] }\n',
      [['start'], ['finish', 'm [N=1]', 'success']],
      'running | s:running[m [N=1]=success m [N=2]=queued after=created]',
    ],
    [
      'an empty stage passes straight through',
      'stages: [a, empty, b]\njobs:\n  x: { stage: a, script: [x] }\n  y: { stage: b, script: [x] }\n',
      [['start'], ['finish', 'x', 'success']],
      'running | a:success[x=success] | empty:success[] | b:running[y=queued]',
    ],
    [
      'a gate waits for approval when its stage starts',
      GATED,
      [['start'], ['finish', 'a', 'success']],
      'running | build:success[a=success] | deploy:running[gate=awaiting_approval ship=created]',
    ],
    [
      'automatic retry: a new attempt is queued',
      'stages: [s]\njobs:\n  a: { stage: s, script: [x], retry: 1 }\n',
      [['start'], ['retry', 'a']],
      'running | s:running[a=queued]',
    ],
    [
      'automatic retry: out of retries, the job fails',
      'stages: [s]\njobs:\n  a: { stage: s, script: [x], retry: 1 }\n',
      [['start'], ['retry', 'a'], ['retry', 'a']],
      'failed | s:failed[a=failed]',
    ],
    [
      'automatic retry: none configured',
      'stages: [s]\njobs:\n  a: { stage: s, script: [x] }\n',
      [['start'], ['retry', 'a']],
      'failed | s:failed[a=failed]',
    ],
  ])('%s', (_name, yaml, steps, expected) => {
    expect(show(play(yaml, steps))).toBe(expected);
  });

  it('emits the effects of each step in order', () => {
    const started = play(TWO_STAGES, [['start']]);
    expect(started.effects).toEqual([
      { kind: 'stage-started', stage: 'build' },
      { kind: 'enqueue', jobId: 'j1' },
      { kind: 'enqueue', jobId: 'j3' },
    ]);
    const done = play(TWO_STAGES, [['start'], ['finish', 'a', 'failed'], ['finish', 'c', 'success']]);
    expect(done.effects).toEqual([
      { kind: 'stage-finished', stage: 'build', status: 'failed' },
      { kind: 'run-finished', status: 'failed' },
    ]);
    const gate = play(GATED, [['start'], ['finish', 'a', 'success']]);
    expect(gate.effects).toEqual([
      { kind: 'stage-finished', stage: 'build', status: 'success' },
      { kind: 'stage-started', stage: 'deploy' },
      { kind: 'await-approval', jobId: 'j2' },
    ]);
  });

  it('a retry keeps the failed attempt as history and says so', () => {
    const run = play('stages: [s]\njobs:\n  a: { stage: s, script: [x], retry: 2 }\n', [
      ['start'],
      ['retry', 'a'],
    ]);
    expect(run.stages[0].jobs.map((j) => [j.id, j.attempt, j.status, j.retryLeft])).toEqual([
      ['j1', 1, 'failed', 2],
      ['n1', 2, 'queued', 1],
    ]);
    expect(run.effects.map((e) => e.kind)).toEqual(['job-attempt-created', 'enqueue']);
  });

  it('refuses to start twice, and to start or finish a job that is not queued or running', () => {
    const run = play(TWO_STAGES, [['start']]);
    expect(startRun(run)).toMatchObject({ ok: false, error: 'conflict' });
    expect(onJobStarted(run, id(run, 'b'))).toMatchObject({ ok: false, error: 'conflict' });
    expect(show(ok(onJobStarted(run, id(run, 'a'))))).toBe(
      'running | build:running[a=running b=created c=queued] | test:created[t=created]',
    );
    expect(onJobFinished(run, id(run, 't'), 'success')).toMatchObject({ ok: false, error: 'conflict' });
    expect(onJobFinished(run, 'nope', 'success')).toMatchObject({ ok: false, error: 'not_found' });
  });

  it('takes a repeated report as a no-op', () => {
    const run = play(TWO_STAGES, [['start'], ['finish', 'c', 'success']]);
    const again = onJobFinished(run, id(run, 'c'), 'success');
    expect(again).toEqual({ ok: true, run, effects: [] });
  });

  it('does not change the snapshot it was given', () => {
    const run = play(TWO_STAGES, [['start']]);
    const before = structuredClone(run);
    onJobFinished(run, id(run, 'a'), 'failed');
    expect(run).toEqual(before);
  });
});

describe('roll-up', () => {
  it.each<[JobStatus[], string]>([
    [['success', 'success'], 'success'],
    [[], 'success'],
    [['success', 'skipped'], 'success'],
    [['success', 'canceled'], 'canceled'],
    [['canceled', 'failed'], 'failed'],
    [['failed', 'skipped', 'success'], 'failed'],
    [['canceled', 'skipped'], 'canceled'],
  ])('%j → %s', (statuses, expected) => {
    expect(rollUp(statuses)).toBe(expected);
  });
});

describe('cancel (POST /runs/{id}/cancel)', () => {
  it.each<[string, string, Step[], string, string[]]>([
    [
      'a queued run is canceled at once',
      TWO_STAGES,
      [['cancel']],
      'canceled(cancel) | build:canceled[a=canceled b=canceled c=canceled] | test:skipped[t=skipped]',
      ['stage-finished', 'run-finished'],
    ],
    [
      'with nothing running, queued and created jobs are canceled and the run ends',
      TWO_STAGES,
      [['start'], ['cancel']],
      'canceled(cancel) | build:canceled[a=canceled b=canceled c=canceled] | test:skipped[t=skipped]',
      ['stage-finished', 'run-finished'],
    ],
    [
      'a running job is asked to stop and keeps the run open',
      TWO_STAGES,
      [['start'], ['run', 'a'], ['cancel']],
      'running(cancel) | build:running[a=running b=canceled c=canceled] | test:created[t=created]',
      ['cancel-agent'],
    ],
    [
      'cancel again while winding down is accepted',
      TWO_STAGES,
      [['start'], ['run', 'a'], ['cancel'], ['cancel']],
      'running(cancel) | build:running[a=running b=canceled c=canceled] | test:created[t=created]',
      ['cancel-agent'],
    ],
    [
      'a waiting gate is canceled',
      GATED,
      [['start'], ['finish', 'a', 'success'], ['cancel']],
      'canceled(cancel) | build:success[a=success] | deploy:canceled[gate=canceled ship=canceled]',
      ['stage-finished', 'run-finished'],
    ],
  ])('%s', (_name, yaml, steps, expected, kinds) => {
    const run = play(yaml, steps);
    expect(show(run)).toBe(expected);
    if (kinds.length) expect(run.effects.map((e) => e.kind)).toEqual(kinds);
  });

  it('a running job gets a cancel-agent effect, stays running, and the run ends canceled when it reports', () => {
    const run = play(TWO_STAGES, [['start'], ['run', 'a']]);
    const a = id(run, 'a');
    const canceled = ok(cancelRun(run));
    expect(canceled.effects).toEqual([{ kind: 'cancel-agent', jobId: a }]);
    expect(show(canceled)).toBe(
      'running(cancel) | build:running[a=running b=canceled c=canceled] | test:created[t=created]',
    );
    expect(show(ok(onJobFinished(canceled, a, 'canceled')))).toBe(
      'canceled(cancel) | build:canceled[a=canceled b=canceled c=canceled] | test:skipped[t=skipped]',
    );
    // Even if it manages to succeed, the next stage does not start.
    const succeeded = ok(onJobFinished(canceled, a, 'success'));
    expect(succeeded.status).toBe('canceled');
    expect(succeeded.stages[1].status).toBe('skipped');
  });

  it.each(['success', 'failed', 'canceled'] as const)('a %s run is a conflict', (status) => {
    const run = { ...plan(TWO_STAGES), status };
    expect(cancelRun(run)).toMatchObject({ ok: false, error: 'conflict' });
  });
});
