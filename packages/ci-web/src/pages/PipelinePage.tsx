// One pipeline of a project (/projects/{slug}/pipelines/{name}): what it is (stages, jobs, triggers,
// parameters, concurrency — from the project's detail, which every viewer may read), its runs newest first and
// paged through GET /api/v1/runs?pipeline={id} (the offset lives in the address), a Trigger button for
// maintainers, and its public status badge with the Markdown to paste into a README.
import { EmptyState, ErrorState, LoadingState } from '@app/web-kit';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiGet, enc, query } from '../api/client';
import { BadgeSnippet } from '../components/BadgeSnippet';
import { PipelineDefinition } from '../components/PipelineDefinition';
import { RunsTable } from '../components/RunsTable';
import { TriggerDialog } from '../components/TriggerDialog';
import { ErrorNote, Loading, PageHeader, Pager } from '../components/ui';
import { pipelineHref } from '../lib/links';
import { Link, navigate, useLocation } from '../lib/router';
import { useSession } from '../lib/session';

const LIMIT = 20;

export function PipelinePage({ slug, name }: { slug: string; name: string }) {
  const { can } = useSession();
  const { search } = useLocation();
  const offset = Math.max(0, Number.parseInt(search.get('offset') ?? '0', 10) || 0);
  const [triggering, setTriggering] = useState(false);
  const project = useQuery({
    queryKey: ['project', slug],
    queryFn: () => apiGet('/api/v1/projects/{slug}', { params: { slug } }),
    refetchInterval: 15_000,
  });
  const pipeline = project.data?.pipelines.find((p) => p.name === name);
  const runs = useQuery({
    queryKey: ['runs', { pipeline: pipeline?.id, offset }],
    queryFn: () => apiGet('/api/v1/runs', { query: { pipeline: pipeline!.id, limit: LIMIT, offset } }),
    enabled: pipeline !== undefined,
    placeholderData: keepPreviousData,
    // Runs still going change by the second; a finished history only grows when something new starts.
    refetchInterval: (q) =>
      q.state.data?.runs.some((r) => r.status === 'queued' || r.status === 'running') ? 3000 : 15_000,
  });

  if (project.isLoading) return <Loading />;
  if (!project.data) return <ErrorNote error={project.error} title={`Project ${slug}`} />;
  if (!pipeline)
    return (
      <EmptyState
        title={`Project ${slug} has no active pipeline named "${name}".`}
        action={<Link href={`/projects/${enc(slug)}`}>Back to {project.data.name}</Link>}
      >
        It may have been renamed or removed from the project's definition.
      </EmptyState>
    );
  const page = runs.data;
  return (
    <>
      <PageHeader
        title={pipeline.name}
        sub={
          <>
            pipeline of <Link href={`/projects/${enc(slug)}`}>{project.data.name}</Link>
            {page ? ` · ${page.total} run${page.total === 1 ? '' : 's'}` : ''}
          </>
        }
        actions={
          can('maintainer') && (
            <button
              type="button"
              className="primary"
              aria-label={`Trigger ${pipeline.name}`}
              onClick={() => setTriggering(true)}
            >
              Trigger
            </button>
          )
        }
      />
      <PipelineDefinition pipeline={pipeline} />
      <section className="panel" aria-labelledby="history-title">
        <h2 id="history-title">Run history</h2>
        {runs.isLoading && <LoadingState />}
        {runs.error && (
          <ErrorState
            error={runs.error}
            title="The runs could not be listed"
            onRetry={() => runs.refetch()}
          />
        )}
        {page && page.total === 0 && (
          <EmptyState title="This pipeline has not run yet.">
            {can('maintainer')
              ? 'Trigger it here, or push to a repository it watches.'
              : 'Its runs appear here once it is triggered.'}
          </EmptyState>
        )}
        {page && page.runs.length > 0 && (
          <>
            <RunsTable runs={page.runs} showProject={false} />
            <Pager
              total={page.total}
              limit={page.limit}
              offset={page.offset}
              onChange={(o) => navigate(`${pipelineHref(slug, name)}${query({ offset: o || undefined })}`)}
            />
          </>
        )}
      </section>
      <BadgeSnippet slug={slug} name={pipeline.name} />
      {triggering && <TriggerDialog pipeline={pipeline} slug={slug} onClose={() => setTriggering(false)} />}
    </>
  );
}
