// The audit log (administrators): newest first, filtered by exact actor and action, paged.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiGet } from '../../api/client';
import { PagedQueryView } from '../../components/QueryView';
import { Empty, PageHeader } from '../../components/ui';
import { dateTime } from '../../lib/format';

const LIMIT = 50;

function detailsText(d: Record<string, unknown>): string {
  return Object.entries(d)
    .filter(([k]) => k !== 'request_id')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
}

export function AuditPage() {
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const [filters, setFilters] = useState({ actor: '', action: '' });
  const [offset, setOffset] = useState(0);
  const audit = useQuery({
    queryKey: ['audit', filters, offset],
    queryFn: () => apiGet('/api/v1/admin/audit', { query: { ...filters, limit: LIMIT, offset } }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader title="Audit log" sub="Every state-changing request and every sign-in, newest first." />
      <form
        className="filters row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          setOffset(0);
          setFilters({ actor: actor.trim(), action: action.trim() });
        }}
      >
        <label className="inline">
          Actor
          <input value={actor} placeholder="username" onChange={(e) => setActor(e.target.value)} />
        </label>
        <label className="inline grow">
          Action
          <input
            value={action}
            placeholder="e.g. auth.login or POST /api/v1/projects/apply"
            onChange={(e) => setAction(e.target.value)}
          />
        </label>
        <button type="submit">Filter</button>
      </form>
      <PagedQueryView
        query={audit}
        onPage={setOffset}
        isEmpty={(d) => d.entries.length === 0}
        empty={<Empty>No entries match.</Empty>}
      >
        {(d) => (
          <>
            <table className="table compact" aria-label="Audit entries">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Actor</th>
                  <th>Action</th>
                  <th>Target</th>
                  <th>Details</th>
                </tr>
              </thead>
              <tbody>
                {d.entries.map((e) => (
                  <tr key={e.id}>
                    <td className="nowrap small">{dateTime(e.at)}</td>
                    <td>{e.actor}</td>
                    <td className="mono small">{e.action}</td>
                    <td className="mono small">{e.target ?? ''}</td>
                    <td className="small muted">
                      {e.details.outcome === 'failure' && <span className="badge badge-failed">failure</span>}{' '}
                      {detailsText(e.details)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </PagedQueryView>
    </>
  );
}
