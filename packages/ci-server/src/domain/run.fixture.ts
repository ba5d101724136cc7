/**
 * Test helpers for the run state machine tests: plan a run from YAML, play a list of steps through the
 * transitions, and show a snapshot as one line (`run | stage:status[job=status ...]`).
 */
import { parsePipelineDocument } from './bundle-parse.js';
import { jobRunDisplayName } from './matrix.js';
import { planRun } from './run-plan.js';
import {
  approveGate,
  cancelRun,
  currentJobs,
  expireGate,
  onJobFinished,
  onJobStarted,
  rejectGate,
  rerunJob,
  retryOrFail,
  startRun,
} from './run-state.js';
import type { Effect, RunSnapshot, Transition } from './run-types.js';

/** A fresh id generator: j1, j2, ... */
export const ids = (prefix = 'j') => {
  let n = 0;
  return () => `${prefix}${++n}`;
};

export function plan(yaml: string): RunSnapshot {
  const parsed = parsePipelineDocument(`name: p\n${yaml}`);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return planRun(parsed.pipeline.document, ids());
}

export function ok(t: Transition | { ok: false; message: string }): RunSnapshot & { effects: Effect[] } {
  if (!t.ok) throw new Error(`refused: ${t.message}`);
  return Object.assign(t.run, { effects: t.effects });
}

/** `run | stage:status[job=status ...] | ...` with current rows only; matrix runs by display name. */
export function show(run: RunSnapshot): string {
  const stages = run.stages.map(
    (s) =>
      `${s.name}:${s.status}[${currentJobs(s)
        .map((j) => `${jobRunDisplayName(j.name, j.matrix)}=${j.status}`)
        .join(' ')}]`,
  );
  return [`${run.status}${run.cancelRequested ? '(cancel)' : ''}`, ...stages].join(' | ');
}

/** The id of the current row of a job (and matrix display name). */
export function id(run: RunSnapshot, display: string): string {
  const row = run.stages.flatMap(currentJobs).find((j) => jobRunDisplayName(j.name, j.matrix) === display);
  if (!row) throw new Error(`no job ${display} in ${show(run)}`);
  return row.id;
}

export type Step =
  | ['start']
  | ['run', string]
  | ['finish', string, 'success' | 'failed' | 'canceled']
  | ['retry', string]
  | ['cancel']
  | ['approve', string, string]
  | ['reject', string, string]
  | ['expire', string]
  | ['rerun', string];

export function apply(run: RunSnapshot, step: Step, newId: () => string): Transition {
  switch (step[0]) {
    case 'start':
      return startRun(run);
    case 'run':
      return onJobStarted(run, id(run, step[1]));
    case 'finish':
      return onJobFinished(run, id(run, step[1]), step[2]);
    case 'retry':
      return retryOrFail(run, id(run, step[1]), newId);
    case 'cancel':
      return cancelRun(run);
    case 'approve':
      return approveGate(run, id(run, step[1]), step[2]);
    case 'reject':
      return rejectGate(run, id(run, step[1]), step[2]);
    case 'expire':
      return expireGate(run, id(run, step[1]));
    case 'rerun':
      return rerunJob(run, id(run, step[1]), newId);
  }
}

export function play(yaml: string, steps: Step[]): RunSnapshot & { effects: Effect[] } {
  let run = plan(yaml);
  let effects: Effect[] = [];
  const newId = ids('n');
  for (const step of steps) {
    const t = apply(run, step, newId);
    if (!t.ok) throw new Error(`${step.join(' ')} refused: ${t.message}`);
    run = t.run;
    effects = t.effects;
  }
  return Object.assign(run, { effects });
}

export const TWO_STAGES = `stages: [build, test]
jobs:
  a: { stage: build, script: [x] }
  b: { stage: build, script: [x], needs: [a] }
  c: { stage: build, script: [x] }
  t: { stage: test, script: [x], needs: [a] }
`;

export const GATED = `stages: [build, deploy]
jobs:
  a: { stage: build, script: [x] }
  gate: { stage: deploy, approval: { required: 2 } }
  ship: { stage: deploy, script: [x], needs: [gate] }
`;

/** A three-way matrix build (one retry each) before a test stage. */
export const MATRIX = `stages: [build, test]
jobs:
  m: { stage: build, script: [x], matrix: { N: ["1", "2", "3"] }, retry: 1 }
  t: { stage: test, script: [x] }
`;

/** The display names of the first `n` matrix jobs of MATRIX: `m [N=1]`, … */
export const matrixJobs = (n: number) => Array.from({ length: n }, (_, i) => `m [N=${i + 1}]`);
/** A step starting each named job. */
export const running = (names: string[]): Step[] => names.map((n) => ['run', n] as Step);

/** A named moment of a run: the pipeline and the steps played to reach it. */
export type Moment = [string, string, Step[]];

/**
 * Moments of a matrix stage and of a stage with needs, shared by the tests that check a shortcut of the
 * store (job reports, stage counts) against the full transition in each of them.
 */
export const MATRIX_AND_NEEDS_MOMENTS: Moment[] = [
  ['matrix, one running', MATRIX, [['start'], ['run', 'm [N=1]']]],
  ['matrix, all running', MATRIX, [['start'], ...running(matrixJobs(3))]],
  [
    'matrix, two done',
    MATRIX,
    [
      ['start'],
      ...running(matrixJobs(3)),
      ['finish', 'm [N=1]', 'success'],
      ['finish', 'm [N=2]', 'canceled'],
    ],
  ],
  ['matrix, retried', MATRIX, [['start'], ...running(matrixJobs(2)), ['retry', 'm [N=1]']]],
  ['matrix, cancel under way', MATRIX, [['start'], ...running(matrixJobs(2)), ['cancel']]],
  ['needs in a stage', TWO_STAGES, [['start'], ['run', 'a'], ['run', 'c']]],
  [
    'needs met',
    TWO_STAGES,
    [['start'], ['run', 'a'], ['run', 'c'], ['finish', 'a', 'success'], ['run', 'b']],
  ],
  [
    'next stage',
    TWO_STAGES,
    [
      ['start'],
      ['run', 'a'],
      ['run', 'c'],
      ['finish', 'a', 'success'],
      ['run', 'b'],
      ['finish', 'b', 'success'],
      ['finish', 'c', 'success'],
      ['run', 't'],
    ],
  ],
];
