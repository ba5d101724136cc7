// Monitoring of one datasource (`/monitoring?datasource=<id>`): the health figures, the engine's counters,
// the sessions (with cancel / end for administrators where the engine offers them), lock waits where the
// engine reports them, and the slowest statements. Refreshes every few seconds while the page is open.
import { Button, EmptyState, ErrorState, LoadingState } from '@app/web-kit';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import {
  requestDescriptor,
  useManagedConnections,
  useOwnConnections,
  useStorageConfig,
} from '../lib/connections';
import { useEngines } from '../lib/engines';
import { Link, navigate, useLocation } from '../lib/router';
import type { SessionUser } from '../lib/types';
import '../monitoring/monitoring.css';
import { counters, duration, readMonitoring, type SessionAction } from '../monitoring/reading';
import { LocksTable, SessionsTable } from '../monitoring/SessionsTable';

const REFRESH_MS = 5000;

export function MonitoringPage({ user }: { user: SessionUser }) {
  const location = useLocation();
  const storage = useStorageConfig();
  const managed = useManagedConnections();
  const own = useOwnConnections(user.username, storage.data?.serverMode);
  const engines = useEngines();
  const [live, setLive] = useState(true);
  const admin = user.role === 'admin';

  const all = useMemo(() => [...(managed.data ?? []), ...(own.data ?? [])], [managed.data, own.data]);
  const id = location.search.get('datasource') ?? '';
  const connection = all.find((c) => c.id === id);
  const descriptor = connection ? requestDescriptor(connection, user.username) : undefined;
  const engine = engines.data?.find((e) => e.engine === connection?.type);
  // Session control: the engine's maintenance operations, for administrators (the server checks again).
  // (The generated type leaves the operations' item shape open.)
  const ops = engine?.capabilities?.maintenanceOperations ?? [];
  const actions: SessionAction[] = admin
    ? (['cancel', 'kill'] as const).filter((a) => ops.some((o) => o.type === a))
    : [];

  const reading = useQuery({
    queryKey: ['monitoring', id, admin, connection?.managed ? '' : JSON.stringify(connection ?? null)],
    queryFn: () => readMonitoring(descriptor!, admin),
    enabled: descriptor !== undefined,
    refetchInterval: live ? REFRESH_MS : false,
    staleTime: 0,
  });
  const data = reading.data;

  return (
    <div className="page-body monitoring">
      <div className="page-head">
        <h1>Monitoring</h1>
        <label className="mon-pick">
          <span>Datasource</span>
          <select
            value={id}
            onChange={(e) =>
              navigate(`/monitoring?datasource=${encodeURIComponent(e.target.value)}`, { replace: true })
            }
          >
            <option value="">Choose…</option>
            {all.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} ({c.type})
              </option>
            ))}
          </select>
        </label>
        {connection && (
          <>
            <Button size="sm" onClick={() => reading.refetch()} busy={reading.isFetching}>
              Refresh
            </Button>
            <label className="mon-live">
              <input type="checkbox" checked={live} onChange={(e) => setLive(e.target.checked)} />
              <span>Every {REFRESH_MS / 1000} s</span>
            </label>
            <Link href="/" className="muted small">
              Back to the workspace
            </Link>
          </>
        )}
      </div>
      {!connection ? (
        managed.isPending ? (
          <LoadingState />
        ) : (
          <EmptyState title={id ? `No datasource ${id} is open to you` : 'Pick a datasource to monitor'}>
            Sessions, lock waits and slow statements of the chosen datasource appear here.
          </EmptyState>
        )
      ) : reading.isError ? (
        <ErrorState
          error={reading.error}
          title={`Could not read ${connection.name}`}
          onRetry={() => reading.refetch()}
        />
      ) : !data ? (
        <LoadingState label={`Reading ${connection.name}…`} />
      ) : (
        <>
          <section aria-label="Health" className="mon-cards">
            <Card label="Connections" value={String(data.activeConnections)} />
            <Card label="Database size" value={data.databaseSize} />
            <Card label="Cache hit ratio" value={data.cacheHitRatio} />
            {counters(data).map((c) => (
              <Card key={c.label} label={c.label} value={c.value} />
            ))}
          </section>
          {!admin && (
            <p className="muted small">
              Lock waits, engine counters and session control are for administrators.
            </p>
          )}
          <SessionsTable
            sessions={data.activeSessions}
            locks={data.locks}
            descriptor={descriptor!}
            actions={actions}
            onChanged={() => reading.refetch()}
          />
          {admin &&
            (data.locks ? (
              <LocksTable locks={data.locks} />
            ) : (
              <p className="muted small">{engine?.label ?? connection.type} reports no lock waits.</p>
            ))}
          <section aria-label="Slow statements" className="mon-section">
            <h2>Slow statements</h2>
            {data.slowQueries.length === 0 ? (
              <p className="muted">
                The engine reports none
                {connection.type === 'postgres' ? ' (PostgreSQL needs the pg_stat_statements extension)' : ''}
                .
              </p>
            ) : (
              <div className="grid-wrap">
                <table className="grid" aria-label="Slow statements">
                  <thead>
                    <tr>
                      <th>Statement</th>
                      <th>Calls</th>
                      <th>Average</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.slowQueries.map((q, i) => (
                      // The same text may appear twice (different users or databases).
                      // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own
                      <tr key={i}>
                        <td className="mon-query" title={q.query}>
                          {q.query}
                        </td>
                        <td>{q.calls}</td>
                        <td className="nowrap">{duration(q.avgTime)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      )}
    </div>
  );
}

function Card({ label, value }: { label: string; value: string }) {
  return (
    <div className="mon-card">
      <span className="mon-card-label">{label}</span>
      <strong className="mon-card-value">{value}</strong>
    </div>
  );
}
