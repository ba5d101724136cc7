// A project's notifications: its channels (NotificationChannels.tsx) and the delivery history
// (GET /projects/{slug}/notifications/deliveries): each event sent to each channel with its outcome —
// pending (the next attempt's time), delivered, or failed with the receiver's status and the last error —
// newest first, filtered by outcome, paged, refreshed every 10 s.
import { EmptyState } from '@app/web-kit';
import { usePagedList } from '../lib/paged-list';
import { Link } from '../lib/router';
import { FilterSelect } from './FilterSelect';
import { NotificationChannels } from './NotificationChannels';
import { PagedQueryView } from './QueryView';
import { runHref } from './RunsTable';
import { StatusBadge, Time } from './ui';

const LIMIT = 20;

const OUTCOMES = ['pending', 'delivered', 'failed'].map((s) => ({ value: s, label: s }));

export function NotificationDeliveries({ slug }: { slug: string }) {
  const { list, filters, setFilter, setOffset } = usePagedList({
    key: ['notification-deliveries', slug],
    route: '/api/v1/projects/{slug}/notifications/deliveries',
    params: { slug },
    limit: LIMIT,
    initial: { status: '' },
    refetchMs: 10_000,
  });
  const { status } = filters;
  return (
    <>
      <div className="filters row wrap">
        <FilterSelect
          label="Outcome"
          value={status}
          all="all"
          options={OUTCOMES}
          onChange={(v) => setFilter('status', v)}
        />
      </div>
      <PagedQueryView
        query={list}
        isEmpty={(d) => d.deliveries.length === 0}
        empty={<EmptyState title={status ? `No ${status} deliveries.` : 'No notifications sent yet.'} />}
        onPage={setOffset}
      >
        {(d) => (
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
        )}
      </PagedQueryView>
    </>
  );
}

export function ProjectNotifications({ slug, canEdit }: { slug: string; canEdit: boolean }) {
  return (
    <>
      <h3>Channels</h3>
      <NotificationChannels slug={slug} canEdit={canEdit} />
      <h3>Deliveries</h3>
      <NotificationDeliveries slug={slug} />
    </>
  );
}
