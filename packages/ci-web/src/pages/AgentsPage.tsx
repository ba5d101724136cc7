// The agent fleet (administrators): live state (online, busy, offline, or revoked), labels, the job each
// agent is running (a link to its log, with a ticking duration), capacity, version, host, when it registered
// and was last seen, and a revoke button with a confirmation step (POST /api/v1/admin/agents/{id}/revoke:
// the agent is disconnected and its jobs re-queued; docs/ci-agents.md). Agents register themselves over
// gRPC with the registration token, which an administrator rotates here (shown once); the list refreshes
// every 5 s.
import { EmptyState } from '@app/web-kit';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiGet, apiPost } from '../api/client';
import { PagedQueryView } from '../components/QueryView';
import { runHref } from '../components/RunsTable';
import { ConfirmButton, ErrorNote, Notice, PageHeader, StatusBadge } from '../components/ui';
import { ago, dateTime, duration } from '../lib/format';
import { useNow } from '../lib/now';
import { Link } from '../lib/router';
import { useSession } from '../lib/session';

const LIMIT = 50;
const STATES = ['online', 'busy', 'offline'] as const;

export function AgentsPage() {
  const [offset, setOffset] = useState(0);
  const agents = useQuery({
    queryKey: ['agents', offset],
    queryFn: () => apiGet('/api/v1/agents', { query: { limit: LIMIT, offset } }),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
  const d = agents.data;
  const client = useQueryClient();
  const isAdmin = useSession().can('admin');
  const [confirming, setConfirming] = useState<string | null>(null);
  const revoke = useMutation({
    mutationFn: (id: string) => apiPost('/api/v1/admin/agents/{id}/revoke', undefined, { params: { id } }),
    onSuccess: () => {
      setConfirming(null);
      client.invalidateQueries({ queryKey: ['agents'] });
    },
  });
  // The registration token new agents use: rotated here, answered once; registered agents keep working
  // with their own credentials.
  const [askingRotate, setAskingRotate] = useState(false);
  const rotate = useMutation({
    mutationFn: () => apiPost('/api/v1/admin/agents/registration-token'),
    onSuccess: () => setAskingRotate(false),
  });
  // "last seen" and the running jobs' durations move between refreshes.
  const now = useNow((d?.agents.length ?? 0) > 0);
  const counts = STATES.map((s) => `${d?.agents.filter((a) => a.status === s).length ?? 0} ${s}`).join(' · ');
  return (
    <>
      <PageHeader
        title="Agents"
        sub={
          d && d.agents.length > 0 ? counts : 'Build agents connect to the gRPC port with the agent token.'
        }
        actions={
          isAdmin && (
            <ConfirmButton
              label="Rotate registration token"
              name="Rotate registration token"
              confirmLabel="Rotate: new agents need the new token"
              asking={askingRotate}
              busy={rotate.isPending}
              onAsk={() => setAskingRotate(true)}
              onKeep={() => setAskingRotate(false)}
              onConfirm={() => rotate.mutate()}
            />
          )
        }
      />
      <ErrorNote error={rotate.error} />
      {rotate.data && (
        <div className="note note-success" role="status">
          New registration token (shown once; give it to new agents as <code>CI_AGENT_TOKEN</code>, registered
          agents keep working): <code>{rotate.data.token}</code>
        </div>
      )}
      <PagedQueryView
        query={agents}
        onPage={setOffset}
        isEmpty={(a) => a.agents.length === 0}
        empty={
          <EmptyState title="No agent has registered yet.">
            Start one with <code>npm run start:agent</code> and the control plane's gRPC address and agent
            token (see docs/ci-agents.md).
          </EmptyState>
        }
      >
        {(d) => (
          <>
            <table className="table" aria-label="Agents">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>State</th>
                  <th>Labels</th>
                  <th>Current jobs</th>
                  <th>Version</th>
                  <th>Host</th>
                  <th>Registered</th>
                  <th>Last seen</th>
                  {isAdmin && <th aria-label="Actions" />}
                </tr>
              </thead>
              <tbody>
                {d.agents.map((a) => (
                  <tr key={a.id} data-testid={`agent-${a.name}`}>
                    <td className="strong">{a.name}</td>
                    <td>
                      {a.revoked_at ? (
                        <span title={`revoked ${dateTime(a.revoked_at)}`}>
                          <StatusBadge status="revoked" />
                        </span>
                      ) : (
                        <StatusBadge status={a.status} />
                      )}
                    </td>
                    <td>
                      {a.tags.length === 0 && <span className="muted">none</span>}
                      {a.tags.map((t) => (
                        <span key={t} className="chip small">
                          {t}
                        </span>
                      ))}
                    </td>
                    <td>
                      <span className="muted small">
                        {a.running_jobs.length}/{a.capacity} slots
                      </span>
                      {a.running_jobs.map((j) => (
                        <div key={j.job_run_id} className="small">
                          <Link href={`${runHref(j.run_id)}?job=${j.job_run_id}`}>{j.job_name}</Link>{' '}
                          <span className="muted">
                            {j.status}
                            {j.started_at ? ` ${duration(j.started_at, null, now)}` : ''}
                          </span>
                        </div>
                      ))}
                    </td>
                    <td className="mono small">{a.version}</td>
                    <td className="small">{a.hostname}</td>
                    <td>
                      <time dateTime={a.registered_at} title={dateTime(a.registered_at)}>
                        {ago(a.registered_at, now)}
                      </time>
                    </td>
                    <td>
                      {a.last_heartbeat_at ? (
                        <time dateTime={a.last_heartbeat_at} title={dateTime(a.last_heartbeat_at)}>
                          {ago(a.last_heartbeat_at, now)}
                        </time>
                      ) : (
                        <span className="muted">never</span>
                      )}
                    </td>
                    {isAdmin && (
                      <td>
                        {!a.revoked_at && (
                          <ConfirmButton
                            label="Revoke"
                            name={`Revoke agent ${a.name}`}
                            confirmLabel="Confirm revoke"
                            asking={confirming === a.id}
                            busy={revoke.isPending}
                            onAsk={() => setConfirming(a.id)}
                            onKeep={() => setConfirming(null)}
                            onConfirm={() => revoke.mutate(a.id)}
                          />
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
            <ErrorNote error={revoke.error} title="Revoking failed" />
            {revoke.data && (
              <Notice kind="success">
                Agent {revoke.data.name} was revoked: it is disconnected, its credential is refused, and{' '}
                {revoke.data.requeued_job_runs} job run(s) it held went back to the queue.
              </Notice>
            )}
          </>
        )}
      </PagedQueryView>
    </>
  );
}
