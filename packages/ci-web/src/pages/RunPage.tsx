// One run: what started it (and, for pipelines kept in a repository, a pushed definition that did not apply),
// the pipeline graph and the stages and jobs (polled while it is active), for maintainers cancel while it is
// active, re-run the run and re-run only its failed jobs once it finished, the live log, test results and
// artifacts.
import { Button, LoadingState, useShortcut } from '@app/web-kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { api, apiGet, apiPost } from '../api/client';
import { type RunDetail, TERMINAL } from '../api/types';
import { ArtifactsPanel } from '../components/ArtifactsPanel';
import { ForkApproval } from '../components/ForkApproval';
import { JobsPanel } from '../components/JobsPanel';
import { LogViewer } from '../components/LogViewer';
import { RunStateBadge, RunStateNote } from '../components/RunState';
import { runHref } from '../components/RunsTable';
import { TestsPanel } from '../components/TestsPanel';
import { ErrorNote, Loading, PageHeader, Time } from '../components/ui';
import { duration, shortSha } from '../lib/format';
import { pipelineHref } from '../lib/links';
import { useNow } from '../lib/now';
import { Link, navigate } from '../lib/router';
import { useSession } from '../lib/session';

// The graph (xyflow + elkjs) is its own chunk: the list pages never load it.
const RunGraph = lazy(() => import('../components/RunGraph').then((m) => ({ default: m.RunGraph })));

/** The latest attempt of every job variant that failed: what "re-run failed jobs" re-queues. */
export function failedJobs(run: RunDetail) {
  const latest = new Map<string, RunDetail['stages'][number]['jobs'][number]>();
  for (const s of run.stages)
    for (const j of s.jobs) {
      const key = `${j.name}\u0000${JSON.stringify(j.matrix)}`;
      const seen = latest.get(key);
      if (!seen || j.attempt > seen.attempt) latest.set(key, j);
    }
  return [...latest.values()].filter((j) => j.status === 'failed');
}

export function RunPage({ id }: { id: string }) {
  const { can } = useSession();
  const client = useQueryClient();
  const run = useQuery({
    queryKey: ['run', id],
    queryFn: () => apiGet('/api/v1/runs/{id}', { params: { id }, query: { logs: 0 } }),
    refetchInterval: (q) => (q.state.data && TERMINAL.includes(q.state.data.status) ? false : 2000),
  });
  const refresh = () => {
    client.invalidateQueries({ queryKey: ['run', id] });
    client.invalidateQueries({ queryKey: ['runs'] });
  };
  const cancel = useMutation({ mutationFn: () => api.post(`/api/v1/runs/${id}/cancel`), onSuccess: refresh });
  const rerun = useMutation({
    mutationFn: () => apiPost('/api/v1/runs/{id}/rerun', undefined, { params: { id } }),
    onSuccess: (r) => {
      client.invalidateQueries({ queryKey: ['runs'] });
      navigate(runHref(r.run_id));
    },
  });

  const rerunFailed = useMutation({
    // One job rerun after another: the first makes the run active again, the others join it.
    mutationFn: async (jobIds: string[]) => {
      for (const jobId of jobIds) await api.post(`/api/v1/job_runs/${jobId}/rerun`);
    },
    onSettled: refresh,
  });
  const active = run.data ? !TERMINAL.includes(run.data.status) : false;
  const now = useNow(active);
  useShortcut(
    'r',
    'Re-run failed jobs',
    () => {
      const failed = run.data ? failedJobs(run.data) : [];
      if (failed.length > 0 && can('maintainer') && !active) rerunFailed.mutate(failed.map((j) => j.id));
    },
    { group: 'Run' },
  );
  useShortcut(
    'c',
    'Cancel the run',
    () => {
      if (active && can('maintainer')) cancel.mutate();
    },
    { group: 'Run' },
  );

  if (run.isLoading) return <Loading />;
  if (!run.data) return <ErrorNote error={run.error} title="Run" />;
  const r = run.data;
  const failed = failedJobs(r);
  const params = Object.entries(r.parameters);
  return (
    <>
      <PageHeader
        title={
          <span className="row">
            {r.pipeline_name} #{r.counter} <RunStateBadge run={r} />
          </span>
        }
        sub={
          <>
            <Link href={`/projects/${encodeURIComponent(r.project_slug)}`}>{r.project_slug}</Link> /{' '}
            <Link href={pipelineHref(r.project_slug, r.pipeline_name)}>{r.pipeline_name}</Link> ·{' '}
            {r.cause.replace(/_/g, ' ')} by {r.triggered_by}
            {r.definition_error && ' · with the last good definition'}
            {(r.waiting || r.superseded_by) && (
              <>
                {' · '}
                <RunStateNote run={r} />
              </>
            )}
          </>
        }
        actions={
          can('maintainer') && (
            <>
              {active && (
                <button
                  type="button"
                  className="danger"
                  disabled={cancel.isPending}
                  onClick={() => cancel.mutate()}
                >
                  Cancel run
                </button>
              )}
              {!active && failed.length > 0 && (
                <Button
                  busy={rerunFailed.isPending}
                  onClick={() => rerunFailed.mutate(failed.map((j) => j.id))}
                  title="Re-queue only the jobs that failed (shortcut r)"
                >
                  Re-run failed jobs ({failed.length})
                </Button>
              )}
              {!active && (
                <button type="button" disabled={rerun.isPending} onClick={() => rerun.mutate()}>
                  Rerun
                </button>
              )}
            </>
          )
        }
      />
      <ErrorNote error={cancel.error ?? rerun.error ?? rerunFailed.error} />
      {r.definition_error && (
        // Pipelines as code: the push that caused this run carried a definition that did not apply.
        <section className="note note-error" aria-label="Pipeline definition not applied">
          <strong>
            The pipeline definition at {shortSha(r.revision)} did not apply; this run follows the last
            definition that did.
          </strong>
          <pre className="mono small definition-error">{r.definition_error}</pre>
        </section>
      )}
      <ForkApproval run={r} canApprove={can('maintainer')} onDone={refresh} />
      <dl className="facts">
        <div>
          <dt>Ref</dt>
          <dd className="mono">{r.git_ref ?? '—'}</dd>
        </div>
        <div>
          <dt>Revision</dt>
          <dd className="mono" title={r.revision ?? ''}>
            {shortSha(r.revision)}
          </dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            <Time at={r.created_at} />
          </dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{r.started_at ? duration(r.started_at, r.finished_at, now) : 'not started'}</dd>
        </div>
        {params.length > 0 && (
          <div className="wide">
            <dt>Parameters</dt>
            <dd>
              {params.map(([k, v]) => (
                <span key={k} className="chip mono small">
                  {k}={v}
                </span>
              ))}
            </dd>
          </div>
        )}
      </dl>
      <Suspense fallback={<LoadingState label="Drawing the pipeline…" />}>
        <RunGraph
          run={r}
          onOpen={(jobRunId) => {
            navigate(`/runs/${r.id}?job=${jobRunId}`, { replace: true });
            document.getElementById('logs-title')?.scrollIntoView({ block: 'start' });
          }}
        />
      </Suspense>
      <JobsPanel run={r} canAct={can('maintainer')} now={now} />
      <LogViewer run={r} />
      <TestsPanel run={r} />
      <ArtifactsPanel runId={r.id} status={r.status} />
    </>
  );
}
