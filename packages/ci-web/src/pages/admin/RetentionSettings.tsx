// The retention tab of the server settings: when the last retention pass ran, what the server holds (runs,
// log lines, artifacts, caches) and the quotas that pass keeps it within.

import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../api/client';
import type { RetentionStats } from '../../api/schema';
import { QueryView } from '../../components/QueryView';
import { Fact, Time } from '../../components/ui';
import { bytes } from '../../lib/format';

export function Retention() {
  const q = useQuery({
    queryKey: ['retention'],
    queryFn: () => apiGet('/api/v1/admin/retention'),
  });
  return <QueryView query={q}>{(d) => <RetentionFacts stats={d} />}</QueryView>;
}

function RetentionFacts({ stats }: { stats: RetentionStats }) {
  const { totals, quotas, log_archive, last_run_at } = stats;
  return (
    <>
      <p>
        Last retention pass: <Time at={last_run_at} />
      </p>
      <dl className="facts" aria-label="Retention totals">
        <Fact k="Runs" v={totals.runs.toLocaleString()} />
        <Fact k="Log lines" v={totals.log_lines.toLocaleString()} />
        <Fact k="Artifacts" v={`${totals.artifacts.toLocaleString()} (${bytes(totals.artifact_bytes)})`} />
        <Fact
          k="Cache entries"
          v={`${totals.cache_entries.toLocaleString()} (${bytes(totals.cache_bytes)})`}
        />
      </dl>
      <h3>Quotas</h3>
      <dl className="facts" aria-label="Retention quotas">
        <Fact k="Runs kept per pipeline" v={String(quotas.runs_per_pipeline)} />
        <Fact k="Logs kept" v={`${quotas.log_days} days`} />
        <Fact k="Artifacts kept" v={`${quotas.artifact_days} days, ${bytes(quotas.artifact_bytes)}`} />
        <Fact
          k="Caches"
          v={`idle ${quotas.cache_idle_days} days, ${bytes(quotas.cache_bytes_per_project)}/project`}
        />
        <Fact k="Log archive" v={log_archive.enabled ? `after ${log_archive.after_days} days` : 'off'} />
      </dl>
    </>
  );
}
