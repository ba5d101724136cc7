// All runs, newest first, filtered by status, project and pipeline and paged through `{runs, total, limit,
// offset}`. Filters live in the address (?status=failed&offset=25) so a filtered view can be shared.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, query } from '../api/client';
import { type Project, RUN_STATUSES, type RunPage } from '../api/types';
import { RunsTable } from '../components/RunsTable';
import { Empty, ErrorNote, Loading, PageHeader, Pager } from '../components/ui';
import { navigate, useLocation } from '../lib/router';

const LIMIT = 25;

export function RunsPage() {
  const { search } = useLocation();
  const status = search.get('status') ?? '';
  const project = search.get('project') ?? '';
  const pipeline = search.get('pipeline') ?? '';
  const offset = Math.max(0, Number.parseInt(search.get('offset') ?? '0', 10) || 0);
  const filters = { status, project, pipeline, limit: LIMIT, offset };
  const runs = useQuery({
    queryKey: ['runs', filters],
    queryFn: () => api.get<RunPage>(`/api/v1/runs${query(filters)}`),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
  const projects = useQuery({
    queryKey: ['projects'],
    queryFn: () => api.get<{ projects: Project[] }>('/api/v1/projects'),
  });
  const set = (patch: Partial<typeof filters>) => {
    const next = { status, project, pipeline, offset: 0, ...patch };
    navigate(`/runs${query({ ...next, offset: next.offset || undefined })}`);
  };
  const data = runs.data;
  return (
    <>
      <PageHeader title="Runs" sub={data ? `${data.total} run${data.total === 1 ? '' : 's'}` : undefined} />
      <div className="filters row wrap">
        <label className="inline">
          Status
          <select value={status} onChange={(e) => set({ status: e.target.value })}>
            <option value="">All statuses</option>
            {RUN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          Project
          <select value={project} onChange={(e) => set({ project: e.target.value })}>
            <option value="">All projects</option>
            {(projects.data?.projects ?? []).map((p) => (
              <option key={p.slug} value={p.slug}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        {pipeline && (
          <span className="chip">
            pipeline {data?.runs[0]?.pipeline_name ?? pipeline.slice(0, 8)}
            <button
              type="button"
              className="ghost"
              aria-label="Clear pipeline filter"
              onClick={() => set({ pipeline: '' })}
            >
              ×
            </button>
          </span>
        )}
      </div>
      {runs.isLoading && <Loading />}
      <ErrorNote error={runs.error} />
      {data && data.runs.length === 0 && <Empty>No runs match.</Empty>}
      {data && data.runs.length > 0 && (
        <>
          <RunsTable runs={data.runs} />
          <Pager
            total={data.total}
            limit={data.limit}
            offset={data.offset}
            onChange={(o) => set({ offset: o })}
          />
        </>
      )}
    </>
  );
}
