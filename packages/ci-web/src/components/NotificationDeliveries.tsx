// A project's notifications: its channels (GET /projects/{slug}/notifications) and the delivery history
// (GET /projects/{slug}/notifications/deliveries): each event sent to each channel with its outcome — pending (the next attempt's time), delivered, or failed with the receiver's
// status and the last error — newest first, filtered by outcome, paged, refreshed every 10 s.
import { EmptyState } from '@app/web-kit';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, enc, query } from '../api/client';
import type { NotificationDeliveries as Deliveries } from '../api/schema';
import { Link } from '../lib/router';
import { FilterSelect } from './FilterSelect';
import { QueryView } from './QueryView';
import { runHref } from './RunsTable';
import { Pager, StatusBadge, Time } from './ui';

const LIMIT = 20;

interface Channels {
  channels: { kind: string; target: string; events: string[] }[];
}
const OUTCOMES = ['pending', 'delivered', 'failed'].map((s) => ({ value: s, label: s }));

export function NotificationDeliveries({ slug }: { slug: string }) {
  const [status, setStatus] = useState('');
  const [offset, setOffset] = useState(0);
  const q = useQuery({
    queryKey: ['notification-deliveries', slug, status, offset],
    queryFn: () =>
      api.get<Deliveries>(
        `/api/v1/projects/${enc(slug)}/notifications/deliveries${query({ status: status || undefined, limit: LIMIT, offset })}`,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  return (
    <>
      <div className="filters row wrap">
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
        query={q}
        isEmpty={(d) => d.deliveries.length === 0}
        empty={<EmptyState title={status ? `No ${status} deliveries.` : 'No notifications sent yet.'} />}
      >
        {(d) => (
          <>
            <table className="table compact" aria-label="Notification deliveries">
              <thead>
                <tr>
                  <th>Created</th>
                  <th>Event</th>
                  <th>Channel</th>
                  <th>Outcome</th>
                  <th className="right">Attempts</th>
                  <th>Details</th>
                </tr>
              </thead>
              <tbody>
                {d.deliveries.map((n) => (
                  <tr key={n.id}>
                    <td>
                      <Time at={n.created_at} />
                    </td>
                    <td className="mono small">
                      {n.run_id ? <Link href={runHref(n.run_id)}>{n.event}</Link> : n.event}
                    </td>
                    <td className="small truncate" title={n.channel.target}>
                      {n.channel.kind} {n.channel.target}
                    </td>
                    <td>
                      <StatusBadge status={n.status} />
                    </td>
                    <td className="right">{n.attempts}</td>
                    <td className="small">
                      {n.status === 'delivered' && (
                        <>
                          delivered <Time at={n.delivered_at} />
                        </>
                      )}
                      {n.status === 'pending' && n.next_attempt_at && (
                        <>
                          next attempt <Time at={n.next_attempt_at} />
                        </>
                      )}
                      {n.response_status !== null && <span className="mono"> HTTP {n.response_status}</span>}
                      {n.last_error && <div className="danger-text">{n.last_error}</div>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager total={d.total} limit={d.limit} offset={d.offset} onChange={setOffset} />
          </>
        )}
      </QueryView>
    </>
  );
}

export function ProjectNotifications({ slug }: { slug: string }) {
  const q = useQuery({
    queryKey: ['notifications', slug],
    queryFn: () => api.get<Channels>(`/api/v1/projects/${enc(slug)}/notifications`),
  });
  return (
    <>
      <h3>Channels</h3>
      <QueryView
        query={q}
        isEmpty={(d) => d.channels.length === 0}
        empty={
          <p className="muted">
            No channels: notifications are off. Set them with{' '}
            <code>PUT /api/v1/projects/{slug}/notifications</code>.
          </p>
        }
      >
        {(d) => (
          <ul className="plain-list" aria-label="Notification channels">
            {d.channels.map((c) => (
              <li key={`${c.kind}-${c.target}`}>
                <strong>{c.kind}</strong> <span className="mono">{c.target}</span>{' '}
                <span className="muted">({c.events.join(', ')})</span>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      <h3>Deliveries</h3>
      <NotificationDeliveries slug={slug} />
    </>
  );
}
