/**
 * The run state machine: pure functions from a run snapshot (run-types.ts) to the next snapshot and the
 * effects to carry out. Nothing here reads a clock, a database or a random source; new row ids come from
 * the caller.
 *
 * Flow: stages run in order. In the running stage a `created` job whose `needs` all succeeded is released
 * (`queued`, or `awaiting_approval` for a gate); one whose need failed, was canceled or skipped is
 * `skipped`. When every job of the stage is terminal the stage rolls up failed > canceled > success; a
 * successful stage starts the next, anything else skips the later stages and finishes the run with that
 * status. A run is terminal only once all its jobs are: a cancel marks the run `cancelRequested`, cancels
 * what has not started and asks agents to stop running jobs; the run ends `canceled` when they report.
 * Rejecting a gate works the same way but the run ends `failed`.
 *
 * Notifications (gocdnext's `notifications`): a last stage whose jobs all carry `notifyOn` is not part of
 * the flow above. Once the run has finished, the jobs whose `on` matches its outcome are released and the
 * others skipped; the run's status stays what its own stages decided, whatever the notification jobs do.
 */
import { notifyStage, ownStages, settleNotifications, startNotifications } from './notification-stage.js';
import { currentJobs, identity, isActiveJob, isTerminalJob, release, rollUp } from './run-rows.js';
import {
  type Effect,
  type JobResult,
  type JobRow,
  type JobStatus,
  type RerunJobTransition,
  type RunSnapshot,
  type StageSnapshot,
  TERMINAL_RUN,
  type Transition,
  type TransitionError,
} from './run-types.js';

export { notifyStage } from './notification-stage.js';
export { currentJobs, isTerminalJob, rollUp } from './run-rows.js';

function refuse(
  error: TransitionError,
  message: string,
): { ok: false; error: TransitionError; message: string } {
  return { ok: false, error, message };
}

interface Found {
  row: JobRow;
  current: JobRow;
  stageIndex: number;
}

function find(run: RunSnapshot, jobId: string): Found | null {
  for (const [stageIndex, stage] of run.stages.entries()) {
    const row = stage.jobs.find((j) => j.id === jobId);
    if (row)
      return { row, current: currentJobs(stage).find((c) => identity(c) === identity(row))!, stageIndex };
  }
  return null;
}

/** Whether a job's needs let it run: all succeeded, one can no longer succeed, or still waiting. */
function needsState(run: RunSnapshot, row: JobRow): 'ready' | 'blocked' | 'wait' {
  let waiting = false;
  for (const need of row.needs) {
    const rows = run.stages.flatMap((s) => currentJobs(s).filter((j) => j.name === need));
    if (rows.some((j) => j.status === 'failed' || j.status === 'canceled' || j.status === 'skipped'))
      return 'blocked';
    if (!rows.every((j) => j.status === 'success')) waiting = true;
  }
  return waiting ? 'wait' : 'ready';
}

/** Releases and skips jobs, finishes stages, starts the next, finishes the run: until nothing moves. */
function advance(run: RunSnapshot, fx: Effect[]): void {
  const own = ownStages(run);
  while (!TERMINAL_RUN.includes(run.status)) {
    const index = own.findIndex((s) => s.status === 'running');
    if (index < 0) return;
    const stage = own[index];
    for (let moved = true; moved && !run.cancelRequested; ) {
      moved = false;
      for (const row of currentJobs(stage)) {
        if (row.status !== 'created') continue;
        const state = needsState(run, row);
        if (state === 'blocked') row.status = 'skipped';
        else if (state === 'ready') release(row, fx);
        moved ||= state !== 'wait';
      }
    }
    const rows = currentJobs(stage);
    if (rows.some((r) => !isTerminalJob(r.status))) return;
    const status = rollUp(rows.map((r) => r.status));
    stage.status = status;
    fx.push({ kind: 'stage-finished', stage: stage.name, status });
    const next = own[index + 1];
    if (status === 'success' && !run.cancelRequested && next) {
      next.status = 'running';
      fx.push({ kind: 'stage-started', stage: next.name });
      continue;
    }
    for (const later of own.slice(index + 1)) {
      later.status = 'skipped';
      for (const row of currentJobs(later)) if (!isTerminalJob(row.status)) row.status = 'skipped';
    }
    run.status = status === 'success' && run.cancelRequested ? 'canceled' : status;
    fx.push({ kind: 'run-finished', status: run.status });
    startNotifications(run, fx);
  }
}

/** Cancels what has not started in the active stage and asks agents to stop running jobs. */
function windDown(run: RunSnapshot, fx: Effect[]): void {
  run.cancelRequested = true;
  if (run.status === 'queued' && run.stages.length > 0) {
    run.status = 'running';
    run.stages[0].status = 'running';
  }
  for (const stage of run.stages.filter((s) => s.status === 'running')) {
    for (const row of currentJobs(stage)) {
      if (row.status === 'running') fx.push({ kind: 'cancel-agent', jobId: row.id });
      else if (!isTerminalJob(row.status)) row.status = 'canceled';
    }
  }
}

type Step = (run: RunSnapshot, fx: Effect[]) => { error: TransitionError; message: string } | undefined;

/** Runs `step` on a copy of `run`, then lets the flow advance. */
function transition(run: RunSnapshot, step: Step): Transition {
  const next = structuredClone(run);
  const effects: Effect[] = [];
  const problem = step(next, effects);
  if (problem) return refuse(problem.error, problem.message);
  advance(next, effects);
  settleNotifications(next);
  return { ok: true, run: next, effects };
}

/** Starts a queued run: its first stage runs and the jobs whose needs are met are released. */
export function startRun(run: RunSnapshot): Transition {
  return transition(run, (r, fx) => {
    if (r.status !== 'queued') return { error: 'conflict', message: `the run is ${r.status}, not queued` };
    r.status = 'running';
    if (ownStages(r).length === 0) {
      r.status = 'success';
      fx.push({ kind: 'run-finished', status: 'success' });
      startNotifications(r, fx);
      return;
    }
    r.stages[0].status = 'running';
    fx.push({ kind: 'stage-started', stage: r.stages[0].name });
  });
}

function locate(
  r: RunSnapshot,
  jobId: string,
  wanted: readonly JobStatus[],
): Found | { error: TransitionError; message: string } {
  const found = find(r, jobId);
  if (!found) return { error: 'not_found', message: `job run ${jobId} is not part of this run` };
  if (found.current !== found.row) {
    return {
      error: 'conflict',
      message: `job run ${jobId} is attempt ${found.row.attempt}; attempt ${found.current.attempt} replaced it`,
    };
  }
  if (!wanted.includes(found.row.status)) {
    return {
      error: 'conflict',
      message: `job "${found.row.name}" is ${found.row.status}, not ${wanted.join(' or ')}`,
    };
  }
  return found;
}

/** An agent took a queued job (the store's atomic claim decides who; this records the outcome). */
export function onJobStarted(run: RunSnapshot, jobId: string): Transition {
  return transition(run, (r) => {
    if (r.cancelRequested) return { error: 'conflict', message: 'the run is being canceled' };
    const f = locate(r, jobId, ['queued']);
    if ('error' in f) return f;
    f.row.status = 'running';
  });
}

/** An agent reported the end of a job. Reporting the status the job already has is a no-op. */
export function onJobFinished(run: RunSnapshot, jobId: string, result: JobResult): Transition {
  const found = find(run, jobId);
  if (found && found.row === found.current && found.row.status === result)
    return { ok: true, run, effects: [] };
  return transition(run, (r) => {
    const f = locate(r, jobId, ['queued', 'running']);
    if ('error' in f) return f;
    f.row.status = result;
  });
}

/** A job attempt failed: run it again while it has retries left (a new attempt row), else fail it. */
export function retryOrFail(run: RunSnapshot, jobId: string, newId: () => string): Transition {
  return nextAttempt(run, jobId, newId, true);
}

/**
 * The agent running a job was taken away (an admin revoked it): the attempt ends failed and the job runs
 * again as a new attempt without spending one of its retries — the job did nothing wrong. A run being
 * canceled gets no new attempt.
 */
export function reassignJob(run: RunSnapshot, jobId: string, newId: () => string): Transition {
  return nextAttempt(run, jobId, newId, false);
}

function nextAttempt(run: RunSnapshot, jobId: string, newId: () => string, spendRetry: boolean): Transition {
  return transition(run, (r, fx) => {
    const f = locate(r, jobId, ['queued', 'running']);
    if ('error' in f) return f;
    f.row.status = 'failed';
    if ((spendRetry && f.row.retryLeft <= 0) || r.cancelRequested) return;
    const retry: JobRow = {
      ...structuredClone(f.row),
      id: newId(),
      attempt: f.row.attempt + 1,
      retryLeft: spendRetry ? f.row.retryLeft - 1 : f.row.retryLeft,
    };
    const jobs = r.stages[f.stageIndex].jobs;
    jobs.splice(jobs.indexOf(f.row) + 1, 0, retry);
    release(retry, fx);
    fx.unshift({ kind: 'job-attempt-created', job: retry, previousId: f.row.id });
  });
}

/**
 * Cancel a run that has not finished. A finished run is a conflict, unless notification jobs of it are
 * still active: those are canceled, and the run keeps its status.
 */
export function cancelRun(run: RunSnapshot): Transition {
  return transition(run, (r, fx) => {
    if (TERMINAL_RUN.includes(r.status)) {
      const active = (notifyStage(r) ? currentJobs(notifyStage(r)!) : []).filter((j) =>
        isActiveJob(j.status),
      );
      if (active.length === 0)
        return { error: 'conflict', message: `the run already finished (${r.status})` };
      for (const row of active) {
        if (row.status === 'running') fx.push({ kind: 'cancel-agent', jobId: row.id });
        else row.status = 'canceled';
      }
      return;
    }
    windDown(r, fx);
  });
}

/** One approval of a gate; it opens (success) once `requiredApprovals` distinct people approved. */
export function approveGate(run: RunSnapshot, jobId: string, approver: string): Transition {
  return transition(run, (r) => {
    const f = locate(r, jobId, ['awaiting_approval']);
    if ('error' in f) return f;
    const approvedBy = f.row.approvedBy ?? [];
    if (approvedBy.includes(approver)) {
      return {
        error: 'conflict',
        message: `${approver} already approved "${f.row.name}"; another approver is needed`,
      };
    }
    f.row.approvedBy = [...approvedBy, approver];
    if (f.row.approvedBy.length >= (f.row.requiredApprovals ?? 1)) f.row.status = 'success';
  });
}

/** Reject a gate: it fails and the run winds down to `failed`. */
export function rejectGate(run: RunSnapshot, jobId: string, approver: string): Transition {
  return transition(run, (r, fx) => {
    const f = locate(r, jobId, ['awaiting_approval']);
    if ('error' in f) return f;
    f.row.status = 'failed';
    f.row.rejectedBy = approver;
    windDown(r, fx);
  });
}

/** A gate's `approval.timeout` passed unanswered: the gate is canceled and so is the run. */
export function expireGate(run: RunSnapshot, jobId: string): Transition {
  return transition(run, (r, fx) => {
    const f = locate(r, jobId, ['awaiting_approval']);
    if ('error' in f) return f;
    f.row.status = 'canceled';
    windDown(r, fx);
  });
}

function newAttempt(stage: StageSnapshot, row: JobRow, id: string, fx: Effect[]): JobRow {
  const attempt =
    Math.max(...stage.jobs.filter((j) => identity(j) === identity(row)).map((j) => j.attempt)) + 1;
  const fresh: JobRow = {
    ...structuredClone(row),
    id,
    attempt,
    status: 'created',
    retryLeft: row.retry ?? row.retryLeft,
  };
  if (row.isGate) fresh.approvedBy = [];
  delete fresh.rejectedBy;
  stage.jobs.splice(stage.jobs.indexOf(row) + 1, 0, fresh);
  fx.push({ kind: 'job-attempt-created', job: fresh, previousId: row.id });
  return fresh;
}

/**
 * Runs a finished job run again in the same run, as a new attempt row. Jobs of its stage that were skipped
 * because of it are reset, later stages start over (jobs that had run get new attempts), and the run is
 * `running` again. Refused while the job (or a later stage) is active, when an earlier stage did not
 * succeed, or when its own needs did not succeed.
 */
export function rerunJob(run: RunSnapshot, jobId: string, newId: () => string): RerunJobTransition {
  let created: JobRow | undefined;
  const result = transition(run, (r, fx) => {
    const found = find(r, jobId);
    if (!found) return { error: 'not_found', message: `job run ${jobId} is not part of this run` };
    const { current, stageIndex } = found;
    if (current.notifyOn !== undefined)
      return { error: 'conflict', message: 'a notification job runs again when the run does: rerun the run' };
    if (!isTerminalJob(current.status))
      return { error: 'conflict', message: `job "${current.name}" is still ${current.status}` };
    if (r.cancelRequested && !TERMINAL_RUN.includes(r.status))
      return { error: 'conflict', message: 'the run is being canceled' };
    const failedBefore = r.stages.slice(0, stageIndex).find((s) => s.status !== 'success');
    if (failedBefore)
      return { error: 'conflict', message: `the earlier stage "${failedBefore.name}" did not succeed` };
    const later = r.stages.slice(stageIndex + 1);
    const busy = later.flatMap(currentJobs).find((j) => isActiveJob(j.status));
    if (busy) return { error: 'conflict', message: `job "${busy.name}" of a later stage is ${busy.status}` };
    if (needsState(r, current) === 'blocked') {
      return {
        error: 'conflict',
        message: `the needs of "${current.name}" (${current.needs.join(', ')}) did not succeed; rerun them first`,
      };
    }
    const stage = r.stages[stageIndex];
    created = newAttempt(stage, current, newId(), fx);
    const names = new Set([current.name]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const row of currentJobs(stage)) {
        if (row.status === 'skipped' && row.needs.some((n) => names.has(n))) {
          row.status = 'created';
          grew ||= !names.has(row.name);
          names.add(row.name);
        }
      }
    }
    stage.status = 'running';
    for (const s of later) {
      s.status = 'created';
      for (const row of currentJobs(s)) {
        if (row.status === 'skipped') row.status = 'created';
        else if (row.status !== 'created') newAttempt(s, row, newId(), fx);
      }
    }
    r.status = 'running';
    r.cancelRequested = false;
  });
  if (!result.ok) return result;
  const job = find(result.run, created!.id)!.row;
  return { ...result, job };
}
