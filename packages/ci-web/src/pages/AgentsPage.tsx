// The agent fleet (administrators): status, tags, capacity, the jobs each agent holds, version and last
// heartbeat. Agents register themselves over gRPC; this page only reads.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client';
import type { Agent } from '../api/types';
import { runHref } from '../components/RunsTable';
import { Empty, ErrorNote, Loading, PageHeader, Pager, StatusBadge, Time } from '../components/ui';
import { Link } from '../lib/router';

const LIMIT = 50;

export function AgentsPage() {
  const [offset, setOffset] = useState(0);
  const agents = useQuery({
    queryKey: ['agents', offset],
    queryFn: () =>
      api.get<{ agents: Agent[]; total: number; limit: number; offset: number }>(
        `/api/v1/agents?limit=${LIMIT}&offset=${offset}`,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
  const d = agents.data;
  return (
    <>
      <PageHeader
        title="Agents"
        sub="Build agents connect to the control plane's gRPC port with the agent token."
      />
      {agents.isLoading && <Loading />}
      <ErrorNote error={agents.error} />
      {d && d.agents.length === 0 && <Empty>No agent has registered yet.</Empty>}
      {d && d.agents.length > 0 && (
        <>
          <table className="table" aria-label="Agents">
            <thead>
              <tr>
                <th>Name</th>
                <th>Status</th>
                <th>Tags</th>
                <th>Jobs</th>
                <th>Version</th>
                <th>Host</th>
                <th>Last heartbeat</th>
              </tr>
            </thead>
            <tbody>
              {d.agents.map((a) => (
                <tr key={a.id}>
                  <td className="strong">{a.name}</td>
                  <td>
                    <StatusBadge status={a.status} />
                  </td>
                  <td>
                    {a.tags.map((t) => (
                      <span key={t} className="chip small">
                        {t}
                      </span>
                    ))}
                  </td>
                  <td>
                    {a.running_jobs.length}/{a.capacity}
                    {a.running_jobs.map((j) => (
                      <div key={j.job_run_id} className="small">
                        <Link href={runHref(j.run_id)}>{j.job_name}</Link>{' '}
                        <span className="muted">{j.status}</span>
                      </div>
                    ))}
                  </td>
                  <td className="mono small">{a.version}</td>
                  <td className="small">{a.hostname}</td>
                  <td>
                    <Time at={a.last_heartbeat_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager total={d.total} limit={d.limit} offset={d.offset} onChange={setOffset} />
        </>
      )}
    </>
  );
}
