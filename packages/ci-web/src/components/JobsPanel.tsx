// The stages of a run with their jobs (every attempt): status, matrix values, attempt, agent, exit code and
// time, plus the job actions a maintainer has — rerun a finished job (its latest attempt, when the server
// would take it: not a gate that passed, not while a later stage is active) and approve or reject a gate with
// an optional comment.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client';
import type { JobRun, RunDetail } from '../api/types';
import { duration } from '../lib/format';
import { ErrorNote, StatusBadge, Time } from './ui';

// As the server's state machine (domain/run-state.ts) counts them.
const TERMINAL_JOB = ['success', 'failed', 'canceled', 'skipped'];
const ACTIVE_JOB = ['queued', 'running', 'awaiting_approval'];

const jobKey = (j: JobRun) => `${j.name}\u0000${JSON.stringify(j.matrix)}`;

function latestAttempts(run: RunDetail): Set<string> {
  const best = new Map<string, JobRun>();
  for (const s of run.stages)
    for (const j of s.jobs) {
      const seen = best.get(jobKey(j));
      if (!seen || j.attempt > seen.attempt) best.set(jobKey(j), j);
    }
  return new Set([...best.values()].map((j) => j.id));
}

/**
 * The job runs "Rerun job" is offered for: the latest attempt of a finished job whose earlier stages all
 * succeeded and after whose stage nothing is active (the domain refuses the rest with 409), and never a gate
 * that passed (rerunning it would only ask for the same approval again and redo what followed).
 */
export function rerunnableJobs(run: RunDetail): Set<string> {
  const latest = latestAttempts(run);
  const out = new Set<string>();
  run.stages.forEach((stage, i) => {
    if (run.stages.slice(0, i).some((s) => s.status !== 'success')) return;
    const laterActive = run.stages
      .slice(i + 1)
      .some((s) => s.jobs.some((j) => latest.has(j.id) && ACTIVE_JOB.includes(j.status)));
    if (laterActive) return;
    for (const j of stage.jobs)
      if (latest.has(j.id) && TERMINAL_JOB.includes(j.status) && !(j.gate && j.status === 'success'))
        out.add(j.id);
  });
  return out;
}

export function JobsPanel({ run, canAct, now }: { run: RunDetail; canAct: boolean; now: number }) {
  const latest = latestAttempts(run);
  const rerunnable = rerunnableJobs(run);
  return (
    <section className="panel" aria-labelledby="stages-title">
      <h2 id="stages-title">Stages and jobs</h2>
      <div className="stages">
        {run.stages.map((stage) => (
          <section key={stage.name} className="stage" aria-label={`Stage ${stage.name}`}>
            <div className="stage-head">
              <strong>{stage.name}</strong>
              <StatusBadge status={stage.status} />
            </div>
            {stage.jobs.length === 0 ? (
              <p className="muted small">No jobs yet.</p>
            ) : (
              <table className="table compact" aria-label={`Jobs of ${stage.name}`}>
                <thead>
                  <tr>
                    <th>Job</th>
                    <th>Status</th>
                    <th>Attempt</th>
                    <th>Agent</th>
                    <th>Exit</th>
                    <th>Time</th>
                    {canAct && <th />}
                  </tr>
                </thead>
                <tbody>
                  {stage.jobs.map((job) => (
                    <JobRow
                      key={job.id}
                      job={job}
                      runId={run.id}
                      latest={latest.has(job.id)}
                      rerunnable={rerunnable.has(job.id)}
                      canAct={canAct}
                      now={now}
                    />
                  ))}
                </tbody>
              </table>
            )}
          </section>
        ))}
      </div>
    </section>
  );
}

function JobRow({
  job,
  runId,
  latest,
  rerunnable,
  canAct,
  now,
}: {
  job: JobRun;
  runId: string;
  latest: boolean;
  rerunnable: boolean;
  canAct: boolean;
  now: number;
}) {
  const client = useQueryClient();
  const refresh = () => {
    client.invalidateQueries({ queryKey: ['run', runId] });
    client.invalidateQueries({ queryKey: ['runs'] });
  };
  const rerun = useMutation({
    mutationFn: () => api.post(`/api/v1/job_runs/${job.id}/rerun`),
    onSuccess: refresh,
  });
  const matrix = Object.entries(job.matrix);
  return (
    <>
      <tr className={latest ? undefined : 'superseded'} data-job={job.name}>
        <td>
          <span className="strong">{job.name}</span>
          {matrix.map(([k, v]) => (
            <span key={k} className="chip small mono">
              {k}={v}
            </span>
          ))}
        </td>
        <td>
          <StatusBadge status={job.status} />
          {job.failure_reason && <div className="small muted">{job.failure_reason}</div>}
        </td>
        <td>{job.attempt}</td>
        <td className="small">
          {job.agent ?? <span className="muted">—</span>}
          {job.engine === 'host' ? (
            <span
              className="chip small engine-host"
              title="This attempt ran directly on the agent's host, without a sandbox or container: its operator opted in to the host engine"
            >
              host, not isolated
            </span>
          ) : (
            job.engine && (
              <span className="chip small" title="The engine that isolated this attempt">
                {job.engine}
              </span>
            )
          )}
        </td>
        <td className="mono">{job.exit_code ?? <span className="muted">—</span>}</td>
        <td className="small">{job.started_at ? duration(job.started_at, job.finished_at, now) : '—'}</td>
        {canAct && (
          <td className="right">
            {rerunnable && (
              <button
                type="button"
                aria-label={`Rerun job ${job.name}`}
                disabled={rerun.isPending}
                onClick={() => rerun.mutate()}
              >
                Rerun job
              </button>
            )}
          </td>
        )}
      </tr>
      {rerun.error && (
        <tr>
          <td colSpan={7}>
            <ErrorNote error={rerun.error} />
          </td>
        </tr>
      )}
      {job.gate && (job.status === 'awaiting_approval' || job.gate.decisions.length > 0) && (
        <tr className="gate-row">
          <td colSpan={7}>
            <GateDetails job={job} />
            {job.status === 'awaiting_approval' &&
              (canAct ? <GateControls job={job} onDone={refresh} /> : <em>Waiting for approval.</em>)}
          </td>
        </tr>
      )}
    </>
  );
}

/** Who the gate admits, as the server enforces it (approval.approvers and approval.approver_groups). */
function mayApprove(gate: NonNullable<JobRun['gate']>): string {
  // maintainer and admin are roles; any other name is an approver group an admin keeps.
  const groups = gate.approver_groups.map((g) =>
    g === 'maintainer' || g === 'admin' ? `role ${g}` : `group ${g}`,
  );
  const all = [...gate.approvers, ...groups];
  if (all.length === 0) return 'any maintainer or admin';
  return all.length === 1 ? all[0] : `${all.slice(0, -1).join(', ')} or ${all.at(-1)}`;
}

/** What the gate asks, how many approvals it has of how many, and who decided what, with their comments. */
function GateDetails({ job }: { job: JobRun }) {
  const gate = job.gate;
  if (!gate) return null;
  return (
    <section className="gate-details" aria-label={`Gate ${job.name}`}>
      {gate.description && <p className="gate-description">{gate.description}</p>}
      <p className="small">
        <strong>
          {gate.approvals} of {gate.required}
        </strong>{' '}
        approval{gate.required === 1 ? '' : 's'} received
      </p>
      <p className="small gate-approvers">
        May approve: {mayApprove(gate)}
        {gate.allow_self_approval ? '' : ' (not whoever triggered the run)'}
      </p>
      {gate.decisions.length > 0 && (
        <ul className="gate-decisions" aria-label={`Decisions on ${job.name}`}>
          {gate.decisions.map((d) => (
            <li key={`${d.actor}-${d.at}`}>
              <span className={d.decision === 'approve' ? 'ok' : 'danger-text'}>
                {d.decision === 'approve' ? 'Approved' : 'Rejected'}
              </span>{' '}
              by <strong>{d.actor}</strong> <Time at={d.at} />
              {d.comment && <q className="gate-comment">{d.comment}</q>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function GateControls({ job, onDone }: { job: JobRun; onDone: () => void }) {
  const [comment, setComment] = useState('');
  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'reject') =>
      api.post(`/api/v1/job_runs/${job.id}/${decision}`, comment.trim() ? { comment: comment.trim() } : {}),
    onSuccess: () => {
      setComment('');
      onDone();
    },
  });
  return (
    <fieldset className="gate" aria-label={`Approval for ${job.name}`}>
      <legend>{job.name} waits for approval.</legend>
      <div className="row wrap">
        <label className="inline grow">
          Comment
          <input value={comment} maxLength={10_000} onChange={(e) => setComment(e.target.value)} />
        </label>
        <button
          type="button"
          className="primary"
          disabled={decide.isPending}
          onClick={() => decide.mutate('approve')}
        >
          Approve
        </button>
        <button
          type="button"
          className="danger"
          disabled={decide.isPending}
          onClick={() => decide.mutate('reject')}
        >
          Reject
        </button>
      </div>
      <ErrorNote error={decide.error} />
    </fieldset>
  );
}
