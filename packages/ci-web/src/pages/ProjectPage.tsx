// One project: its pipelines with their latest run and trigger buttons, run-all, the value-stream map, the
// recent runs and (for maintainers) its secrets and a delete button.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { api, apiGet, apiPost, enc } from '../api/client';
import type { PipelineEntry, ProjectDetail } from '../api/types';
import { ConfigRepoStatus } from '../components/ConfigRepoStatus';
import { ProjectSettings } from '../components/ProjectSettings';
import { RunStateBadge } from '../components/RunState';
import { RunsTable, runHref } from '../components/RunsTable';
import { SecretsPanel } from '../components/SecretsPanel';
import { TriggerDialog } from '../components/TriggerDialog';
import { Empty, ErrorNote, Loading, Notice, PageHeader, Time } from '../components/ui';
import { pipelineHref } from '../lib/links';
import { materialText } from '../lib/materials';
import { Link, navigate } from '../lib/router';
import { useSession } from '../lib/session';

// The map and its layout engine (elkjs, shared with the run graph) load only when a project page opens.
const VsmGraph = lazy(() => import('../components/VsmGraph').then((m) => ({ default: m.VsmGraph })));

export function ProjectPage({ slug }: { slug: string }) {
  const { can } = useSession();
  const client = useQueryClient();
  const active = (d?: ProjectDetail) =>
    d?.recent_runs.some((r) => r.status === 'queued' || r.status === 'running') ?? false;
  const project = useQuery({
    queryKey: ['project', slug],
    queryFn: () => apiGet('/api/v1/projects/{slug}', { params: { slug } }),
    refetchInterval: (q) => (active(q.state.data) ? 3000 : 15_000),
  });
  const vsm = useQuery({
    queryKey: ['vsm', slug],
    queryFn: () => apiGet('/api/v1/projects/{slug}/vsm', { params: { slug } }),
    refetchInterval: 15_000,
  });
  const [triggering, setTriggering] = useState<PipelineEntry | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const runAll = useMutation({
    mutationFn: () => apiPost('/api/v1/projects/{slug}/run-all', undefined, { params: { slug } }),
    onSuccess: () => {
      client.invalidateQueries({ queryKey: ['project', slug] });
      client.invalidateQueries({ queryKey: ['vsm', slug] });
      client.invalidateQueries({ queryKey: ['runs'] });
    },
  });
  const remove = useMutation({
    mutationFn: () => api.del(`/api/v1/projects/${enc(slug)}`),
    onSuccess: () => {
      client.invalidateQueries({ queryKey: ['projects'] });
      navigate('/projects', { replace: true });
    },
  });

  if (project.isLoading) return <Loading />;
  if (!project.data) return <ErrorNote error={project.error} title={`Project ${slug}`} />;
  const p = project.data;
  return (
    <>
      <PageHeader
        title={p.name}
        sub={
          <>
            <span className="mono">{p.slug}</span>
            {p.description ? ` — ${p.description}` : ''}
          </>
        }
        actions={
          can('maintainer') && (
            <>
              <button
                type="button"
                className="primary"
                disabled={runAll.isPending || p.pipelines.length === 0}
                onClick={() => runAll.mutate()}
              >
                Run all
              </button>
              <Link href="/apply" className="button">
                Apply bundle
              </Link>
              {confirmDelete ? (
                <>
                  <button
                    type="button"
                    className="danger"
                    disabled={remove.isPending}
                    onClick={() => remove.mutate()}
                  >
                    Delete {p.slug} and all its runs
                  </button>
                  <button type="button" onClick={() => setConfirmDelete(false)}>
                    Keep
                  </button>
                </>
              ) : (
                <button type="button" onClick={() => setConfirmDelete(true)}>
                  Delete project
                </button>
              )}
            </>
          )
        }
      />
      <ConfigRepoStatus slug={slug} />
      <ErrorNote error={runAll.error ?? remove.error} />
      {runAll.isSuccess && (
        <Notice kind="success">
          Started {runAll.data.run_ids.length} run{runAll.data.run_ids.length === 1 ? '' : 's'}:{' '}
          {runAll.data.run_ids.map((id, i) => (
            <span key={id}>
              {i > 0 && ', '}
              <Link href={runHref(id)}>{id.slice(0, 8)}</Link>
            </span>
          ))}
        </Notice>
      )}

      <section className="panel" aria-labelledby="pipelines-title">
        <h2 id="pipelines-title">Pipelines</h2>
        {p.pipelines.length === 0 ? (
          <Empty>This project has no active pipelines.</Empty>
        ) : (
          <table className="table" aria-label="Pipelines">
            <thead>
              <tr>
                <th>Pipeline</th>
                <th>Stages</th>
                <th>Materials</th>
                <th>Latest run</th>
                {can('maintainer') && <th />}
              </tr>
            </thead>
            <tbody>
              {p.pipelines.map((pl) => (
                <tr key={pl.id}>
                  <td>
                    <Link href={pipelineHref(slug, pl.name)} className="strong">
                      {pl.name}
                    </Link>
                  </td>
                  <td className="small">{pl.stages.join(' → ')}</td>
                  <td className="small">
                    {pl.materials.length === 0 ? (
                      <span className="muted">manual only</span>
                    ) : (
                      pl.materials.map((m) => (
                        <div key={m.fingerprint} className="mono truncate" title={materialText(m)}>
                          {materialText(m)}
                        </div>
                      ))
                    )}
                  </td>
                  <td>
                    {pl.latest_run ? (
                      <span className="row">
                        <RunStateBadge run={pl.latest_run} />
                        <Link href={runHref(pl.latest_run.id)}>#{pl.latest_run.counter}</Link>
                        <Time at={pl.latest_run.created_at} />
                      </span>
                    ) : (
                      <span className="muted">never run</span>
                    )}
                  </td>
                  {can('maintainer') && (
                    <td className="right">
                      <button
                        type="button"
                        aria-label={`Trigger ${pl.name}`}
                        onClick={() => setTriggering(pl)}
                      >
                        Trigger
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="panel" aria-labelledby="vsm-title">
        <h2 id="vsm-title">Value stream</h2>
        {vsm.isLoading && <Loading />}
        <ErrorNote error={vsm.error} />
        {vsm.data && (
          <Suspense fallback={<Loading what="Loading the map" />}>
            <VsmGraph nodes={vsm.data.nodes} edges={vsm.data.edges} />
          </Suspense>
        )}
      </section>

      <ProjectSettings project={p} canEdit={can('maintainer')} />

      <section className="panel" aria-labelledby="recent-title">
        <h2 id="recent-title">
          Recent runs{' '}
          <Link href={`/runs?project=${enc(slug)}`} className="small">
            all runs
          </Link>
        </h2>
        {p.recent_runs.length === 0 ? (
          <Empty>No runs yet.</Empty>
        ) : (
          <RunsTable runs={p.recent_runs} showProject={false} />
        )}
      </section>

      {can('maintainer') && <SecretsPanel slug={slug} />}
      {triggering && <TriggerDialog pipeline={triggering} slug={slug} onClose={() => setTriggering(null)} />}
    </>
  );
}
