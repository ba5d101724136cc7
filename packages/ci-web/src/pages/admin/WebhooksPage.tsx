// Inbound webhook deliveries (administrators): newest first, filtered by SCM and outcome, paged; a delivery
// opens with its headers and payload as received (the server keeps them, truncated past its limit) and the
// runs it started.
import { Badge, Dialog, EmptyState, ErrorState, LoadingState } from '@app/web-kit';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, enc, query } from '../../api/client';
import type { WebhookDeliveries, WebhookDelivery } from '../../api/schema';
import { FilterSelect } from '../../components/FilterSelect';
import { QueryView } from '../../components/QueryView';
import { PageHeader, Pager, Time } from '../../components/ui';
import { bytes as formatBytes } from '../../lib/format';
import { Link } from '../../lib/router';

const LIMIT = 50;
const HOSTS = [
  { value: 'github', label: 'GitHub' },
  { value: 'gitlab', label: 'GitLab' },
  { value: 'bitbucket', label: 'Bitbucket' },
];
const OUTCOMES = ['accepted', 'ignored', 'rejected'].map((s) => ({ value: s, label: s }));

export function WebhooksPage() {
  const [scm, setScm] = useState('');
  const [status, setStatus] = useState('');
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ['webhooks', scm, status, offset],
    queryFn: () =>
      api.get<WebhookDeliveries>(
        `/api/v1/admin/webhooks${query({ scm: scm || undefined, status: status || undefined, limit: LIMIT, offset })}`,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
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
          value={scm}
          all="all"
          options={HOSTS}
          onChange={(v) => {
            setOffset(0);
            setScm(v);
          }}
        />
        <FilterSelect
          label="Outcome"
          value={status}
          all="all"
          options={OUTCOMES}
          onChange={(v) => {
            setOffset(0);
            setStatus(v);
          }}
        />
      </div>
      <QueryView
        query={list}
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
            <Pager total={d.total} limit={d.limit} offset={d.offset} onChange={setOffset} />
          </>
        )}
      </QueryView>
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
    queryFn: () => api.get<WebhookDelivery>(`/api/v1/admin/webhooks/${enc(id)}`),
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
