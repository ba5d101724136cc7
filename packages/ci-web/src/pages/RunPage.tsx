// One run: what started it, its stages and jobs (polled while it is active), cancel and rerun for
// maintainers, the live log, test results and artifacts.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { type RunDetail, TERMINAL } from '../api/types';
import { ArtifactsPanel } from '../components/ArtifactsPanel';
import { JobsPanel } from '../components/JobsPanel';
import { LogViewer } from '../components/LogViewer';
import { runHref } from '../components/RunsTable';
import { TestsPanel } from '../components/TestsPanel';
import { ErrorNote, Loading, PageHeader, StatusBadge, Time } from '../components/ui';
import { duration, shortSha } from '../lib/format';
import { Link, navigate } from '../lib/router';
import { useSession } from '../lib/session';

export function RunPage({ id }: { id: string }) {
  const { can } = useSession();
  const client = useQueryClient();
  const run = useQuery({
    queryKey: ['run', id],
    queryFn: () => api.get<RunDetail>(`/api/v1/runs/${encodeURIComponent(id)}?logs=0`),
    refetchInterval: (q) => (q.state.data && TERMINAL.includes(q.state.data.status) ? false : 2000),
  });
  const refresh = () => {
    client.invalidateQueries({ queryKey: ['run', id] });
    client.invalidateQueries({ queryKey: ['runs'] });
  };
  const cancel = useMutation({ mutationFn: () => api.post(`/api/v1/runs/${id}/cancel`), onSuccess: refresh });
  const rerun = useMutation({
    mutationFn: () => api.post<{ run_id: string }>(`/api/v1/runs/${id}/rerun`),
    onSuccess: (r) => {
      client.invalidateQueries({ queryKey: ['runs'] });
      navigate(runHref(r.run_id));
    },
  });

  if (run.isLoading) return <Loading />;
  if (!run.data) return <ErrorNote error={run.error} title="Run" />;
  const r = run.data;
  const active = !TERMINAL.includes(r.status);
  const params = Object.entries(r.parameters);
  return (
    <>
      <PageHeader
        title={
          <span className="row">
            {r.pipeline_name} #{r.counter} <StatusBadge status={r.status} />
          </span>
        }
        sub={
          <>
            <Link href={`/projects/${encodeURIComponent(r.project_slug)}`}>{r.project_slug}</Link> ·{' '}
            {r.cause.replace(/_/g, ' ')} by {r.triggered_by}
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
              <button type="button" disabled={rerun.isPending} onClick={() => rerun.mutate()}>
                Rerun
              </button>
            </>
          )
        }
      />
      <ErrorNote error={cancel.error ?? rerun.error} />
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
          <dd>{r.started_at ? duration(r.started_at, r.finished_at) : 'not started'}</dd>
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
      <JobsPanel run={r} canAct={can('maintainer')} />
      <LogViewer run={r} />
      <TestsPanel runId={r.id} status={r.status} />
      <ArtifactsPanel runId={r.id} status={r.status} />
    </>
  );
}
