// A run's artifacts with download links. The links are signed and live about five minutes, so the list is
// fetched with `download=true` and refreshed well within that time.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet } from '../api/client';
import { TERMINAL } from '../api/types';
import { bytes } from '../lib/format';
import { Empty, ErrorNote, StatusBadge } from './ui';

export function ArtifactsPanel({ runId, status }: { runId: string; status: string }) {
  const active = !TERMINAL.includes(status);
  const artifacts = useQuery({
    // Keyed by the run's status: reports and artifacts arrive as jobs end, so each change refetches.
    queryKey: ['artifacts', runId, status],
    placeholderData: keepPreviousData,
    queryFn: () =>
      apiGet('/api/v1/runs/{id}/artifacts', { params: { id: runId }, query: { download: true } }),
    refetchInterval: active ? 5000 : 3 * 60_000,
    staleTime: 60_000,
  });
  const list = artifacts.data?.artifacts ?? [];
  return (
    <section className="panel" aria-labelledby="artifacts-title">
      <h2 id="artifacts-title">Artifacts</h2>
      <ErrorNote error={artifacts.error} />
      {artifacts.data && list.length === 0 && <Empty>No artifacts.</Empty>}
      {list.length > 0 && (
        <table className="table compact" aria-label="Artifacts">
          <thead>
            <tr>
              <th>Path</th>
              <th>Job</th>
              <th>Size</th>
              <th>Status</th>
              <th>SHA-256</th>
            </tr>
          </thead>
          <tbody>
            {list.map((a) => (
              <tr key={a.id}>
                <td className="mono">
                  {a.download_url ? (
                    <a href={a.download_url} download>
                      {a.path}
                    </a>
                  ) : (
                    a.path
                  )}
                </td>
                <td>{a.job_name}</td>
                <td>{bytes(a.size_bytes)}</td>
                <td>
                  <StatusBadge status={a.status} />
                </td>
                <td className="mono small" title={a.content_sha256 ?? ''}>
                  {a.content_sha256?.slice(0, 12) ?? '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
