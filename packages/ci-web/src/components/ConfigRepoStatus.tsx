// The pipelines-as-code binding of a project (GET /api/v1/projects/{slug}/config-repo, docs/ci-gocdnext.md):
// where its pipelines come from and, when the last commit read did not apply, why — the error with each
// problem's file and line, the commit that failed and the one still in force. Nothing for a project that is
// not bound (404).
import { useQuery } from '@tanstack/react-query';
import { ApiError, apiGet } from '../api/client';
import { shortSha } from '../lib/format';

export function ConfigRepoStatus({ slug }: { slug: string }) {
  const repo = useQuery({
    queryKey: ['config-repo', slug],
    queryFn: () =>
      apiGet('/api/v1/projects/{slug}/config-repo', { params: { slug } }).catch((err) => {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }),
    refetchInterval: 15_000,
  });
  const r = repo.data;
  if (!r) return null;
  const where = `${r.path} of ${r.url} (${r.branch})`;
  if (r.status !== 'failed')
    return (
      <p className="muted small" data-testid="config-repo">
        Pipelines from {where}
        {r.applied_revision && (
          <>
            {' '}
            at <span className="mono">{shortSha(r.applied_revision)}</span>
          </>
        )}
      </p>
    );
  return (
    <div className="note note-error" role="alert" aria-label="Pipelines as code">
      <strong>
        The pipeline definition at {r.checked_revision ? shortSha(r.checked_revision) : 'the last commit'} did
        not apply
      </strong>
      {r.applied_revision ? (
        <> — the pipelines of {shortSha(r.applied_revision)} stay in force.</>
      ) : (
        <> — no definition from the repository is in force yet.</>
      )}
      <div className="small muted">{where}</div>
      <pre className="mono small" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {r.error}
      </pre>
    </div>
  );
}
