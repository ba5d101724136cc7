// All runs, newest first, filtered by status, project and pipeline and paged through the API's
// `{runs, total, limit, offset}`. Filters live in the address (?status=failed&project=shop&offset=25) so a
// filtered view can be shared and reloaded. The list refreshes every 5 s (the API has no run-list stream) and
// the durations of running runs tick every second in between.
import { EmptyState, ErrorState, LoadingState } from '@app/web-kit';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet, query } from '../api/client';
import { RUN_STATUSES } from '../api/types';
import { FilterSelect } from '../components/FilterSelect';
import { RunsTable } from '../components/RunsTable';
import { PageHeader, Pager } from '../components/ui';
import { navigate, useLocation } from '../lib/router';

const LIMIT = 25;
const REFRESH_MS = 5000;

export function RunsPage() {
  const { search } = useLocation();
  const status = search.get('status') ?? '';
  const project = search.get('project') ?? '';
  const pipeline = search.get('pipeline') ?? '';
  const offset = Math.max(0, Number.parseInt(search.get('offset') ?? '0', 10) || 0);
  const filters = { status, project, pipeline, limit: LIMIT, offset };
  const runs = useQuery({
    queryKey: ['runs', filters],
    queryFn: () => apiGet('/api/v1/runs', { query: filters }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
    retry: false,
  });
  const projects = useQuery({
    queryKey: ['projects'],
    queryFn: () => apiGet('/api/v1/projects'),
  });
  // The pipeline choice needs a project: its pipelines come from the project's detail.
  const detail = useQuery({
    queryKey: ['project', project],
    queryFn: () => apiGet('/api/v1/projects/{slug}', { params: { slug: project } }),
    enabled: project !== '',
  });
  const set = (patch: Partial<typeof filters>) => {
    const next = { status, project, pipeline, offset: 0, ...patch };
    navigate(`/runs${query({ ...next, offset: next.offset || undefined })}`);
  };
  const filtered = status !== '' || project !== '' || pipeline !== '';
  const clear = () => navigate('/runs');
  const data = runs.data;
  const pipelines = detail.data?.pipelines ?? [];
  // A pipeline named in the address but not in the chosen project's list still shows as chosen.
  const pipelineOptions = pipelines.map((p) => ({ value: p.id, label: p.name }));
  if (pipeline && !pipelines.some((p) => p.id === pipeline))
    pipelineOptions.push({ value: pipeline, label: data?.runs[0]?.pipeline_name ?? pipeline.slice(0, 8) });
  return (
    <>
      <PageHeader
        title="Runs"
        sub={
          data ? (
            <>
              {data.total} run{data.total === 1 ? '' : 's'}
              <span className="live-dot" title={`refreshed every ${REFRESH_MS / 1000} s`}>
                live
              </span>
            </>
          ) : undefined
        }
      />
      <div className="filters row wrap">
        <FilterSelect
          label="Status"
          value={status}
          all="All statuses"
          options={RUN_STATUSES.map((s) => ({ value: s, label: s }))}
          onChange={(v) => set({ status: v })}
        />
        <FilterSelect
          label="Project"
          value={project}
          all="All projects"
          options={(projects.data?.projects ?? []).map((p) => ({ value: p.slug, label: p.name }))}
          onChange={(v) => set({ project: v, pipeline: '' })}
        />
        <FilterSelect
          label="Pipeline"
          value={pipeline}
          all={project || pipeline ? 'All pipelines' : 'Choose a project first'}
          disabled={!project && !pipeline}
          options={pipelineOptions}
          onChange={(v) => set({ pipeline: v })}
        />
        {filtered && (
          <button type="button" className="ghost" onClick={clear}>
            Clear filters
          </button>
        )}
      </div>
      {runs.isLoading && <LoadingState />}
      {runs.error && (
        <ErrorState error={runs.error} title="The runs could not be listed" onRetry={() => runs.refetch()} />
      )}
      {data && !runs.error && data.runs.length === 0 && (
        <EmptyState
          title={filtered ? 'No runs match these filters.' : 'No runs yet.'}
          action={
            filtered && (
              <button type="button" onClick={clear}>
                Clear filters
              </button>
            )
          }
        >
          {!filtered && 'Trigger a pipeline from its project page, or push to a watched repository.'}
        </EmptyState>
      )}
      {data && !runs.error && data.runs.length > 0 && (
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
