// Inbound webhook deliveries (administrators): newest first, filtered by SCM and outcome, paged; a delivery
// opens with its headers and payload as received (the server keeps them, truncated past its limit) and the
// runs it started.
import { Badge, Dialog, EmptyState, ErrorState, LoadingState } from '@app/web-kit';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiGet } from '../../api/client';
import { FilterSelect } from '../../components/FilterSelect';
import { PagedQueryView } from '../../components/QueryView';
import { PageHeader, Time } from '../../components/ui';
import { bytes as formatBytes } from '../../lib/format';
import { usePagedList } from '../../lib/paged-list';
import { Link } from '../../lib/router';

const LIMIT = 50;
const HOSTS = [
  { value: 'github', label: 'GitHub' },
  { value: 'gitlab', label: 'GitLab' },
  { value: 'bitbucket', label: 'Bitbucket' },
];
const OUTCOMES = ['accepted', 'ignored', 'rejected'].map((s) => ({ value: s, label: s }));

export function WebhooksPage() {
  const [open, setOpen] = useState<string | null>(null);
  const { list, filters, setFilter, setOffset } = usePagedList({
    key: ['webhooks'],
    route: '/api/v1/admin/webhooks',
    limit: LIMIT,
    initial: { scm: '', status: '' },
    refetchMs: 10_000,
  });
  return (
    <>
      <PageHeader
        title="Webhook deliveries"
        sub="Every push and pull-request event the SCM hosts sent, newest first."
      />
      <div className="filters row wrap">
        <FilterSelect
          label="Host"
          value={filters.scm}
          all="all"
          options={HOSTS}
          onChange={(v) => setFilter('scm', v)}
        />
        <FilterSelect
          label="Outcome"
          value={filters.status}
          all="all"
          options={OUTCOMES}
          onChange={(v) => setFilter('status', v)}
        />
      </div>
      <PagedQueryView
        query={list}
        onPage={setOffset}
        isEmpty={(d) => d.deliveries.length === 0}
        empty={
          <EmptyState title="No deliveries yet.">
            Point a repository's webhook at <code>/api/webhooks/github</code> (or gitlab, bitbucket).
          </EmptyState>
        }
      >
        {(d) => (
          <>
            <table className="table" aria-label="Webhook deliveries">
              <thead>
                <tr>
                  <th>Received</th>
                  <th>Host</th>
                  <th>Event</th>
                  <th>Repository</th>
                  <th>Outcome</th>
                  <th>Runs</th>
                </tr>
              </thead>
              <tbody>
                {d.deliveries.map((w) => (
                  <tr key={w.id}>
                    <td>
                      <button type="button" className="linkish" onClick={() => setOpen(w.id)}>
                        <Time at={w.received_at} />
                      </button>
                    </td>
                    <td>{w.scm}</td>
                    <td className="mono small">{w.event}</td>
                    <td className="small">
                      {w.repository ?? '—'} {w.ref && <span className="mono muted">{w.ref}</span>}
                    </td>
                    <td>
                      <Badge
                        tone={
                          w.status === 'accepted' ? 'success' : w.status === 'rejected' ? 'danger' : 'neutral'
                        }
                      >
                        {w.status} {w.status_code}
                      </Badge>{' '}
                      <span className="small muted">{w.reason}</span>
                    </td>
                    <td>{w.run_ids.length}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </PagedQueryView>
      {open && <DeliveryDialog id={open} onClose={() => setOpen(null)} />}
    </>
  );
}

function prettyPayload(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function DeliveryDialog({ id, onClose }: { id: string; onClose(): void }) {
  const one = useQuery({
    queryKey: ['webhook', id],
    queryFn: () => apiGet('/api/v1/admin/webhooks/{id}', { params: { id } }),
  });
  const w = one.data;
  return (
    <Dialog open title="Webhook delivery" onClose={onClose} wide>
      {one.isLoading && <LoadingState />}
      {one.error && <ErrorState error={one.error} />}
      {w && (
        <>
          <p>
            {w.scm} <code>{w.event}</code> · {w.status} {w.status_code} · {w.reason}
          </p>
          {w.run_ids.length > 0 && (
            <p>
              Runs:{' '}
              {w.run_ids.map((r) => (
                <Link key={r} href={`/runs/${r}`} className="mono small">
                  {r.slice(0, 8)}{' '}
                </Link>
              ))}
            </p>
          )}
          <h3>Headers</h3>
          <pre className="code-block">{JSON.stringify(w.headers, null, 2)}</pre>
          <h3>
            Payload ({formatBytes(w.payload_bytes)}
            {w.payload_truncated ? ', truncated' : ''})
          </h3>
          <pre className="code-block" data-testid="webhook-payload">
            {prettyPayload(w.payload)}
          </pre>
        </>
      )}
    </Dialog>
  );
}
