// The audit log (`GET /api/admin/audit`): filters by type, actor, connection, result and time range, pages
// of 50 newest first, and each event's full record on demand.
import { Button } from '@app/web-kit';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, Fragment, useState } from 'react';
import { apiGet, errorText } from '../lib/api';
import { useManagedConnections } from '../lib/connections';
import type { AuditEvent } from '../lib/types';

const PAGE = 50;
const SHOWN = new Set(['id', 'type', 'actor', 'connection', 'connectionName', 'result', 'at']);

/** A datasource's name where one is known: the event's own `connectionName`, else the managed list's. */
export function connectionLabel(
  e: { connection?: unknown; connectionName?: unknown },
  names: ReadonlyMap<string, string>,
): string {
  if (typeof e.connectionName === 'string' && e.connectionName) return e.connectionName;
  const id = typeof e.connection === 'string' ? e.connection : '';
  return names.get(id) ?? id;
}

interface Filters {
  type: string;
  actor: string;
  connection: string;
  result: '' | 'success' | 'failure';
  from: string;
  to: string;
}

const EMPTY: Filters = { type: '', actor: '', connection: '', result: '', from: '', to: '' };

/** `datetime-local` text (local time, no zone) → an ISO instant with a zone, as the route wants. */
function instant(local: string): string | undefined {
  if (!local) return undefined;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function summary(e: AuditEvent): string {
  const parts: string[] = [];
  for (const key of ['route', 'action', 'statement', 'approvalId', 'guardrail', 'error', 'name']) {
    const v = e[key];
    if (typeof v === 'string' && v) parts.push(`${key}: ${v.length > 140 ? `${v.slice(0, 140)}…` : v}`);
  }
  return parts.join(' · ');
}

export function AuditLog() {
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<string | null>(null);
  const managed = useManagedConnections();
  const names = new Map((managed.data ?? []).map((c) => [c.id, c.name]));

  const page = useQuery({
    queryKey: ['audit', filters, offset],
    queryFn: () =>
      apiGet('/api/admin/audit', {
        query: {
          type: filters.type.trim(),
          actor: filters.actor.trim(),
          connection: filters.connection.trim(),
          result: filters.result,
          from: instant(filters.from),
          to: instant(filters.to),
          limit: PAGE,
          offset,
        },
      }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

  const apply = (e: FormEvent) => {
    e.preventDefault();
    setOffset(0);
    setFilters(draft);
  };
  const field = (key: keyof Filters) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value })),
  });
  const data = page.data;

  return (
    <section aria-label="Audit log">
      <form className="filters" onSubmit={apply} aria-label="Audit filters">
        <label>
          <span>Type</span>
          <input placeholder="query_execution" {...field('type')} />
        </label>
        <label>
          <span>Actor</span>
          <input placeholder="someone@example.com" {...field('actor')} />
        </label>
        <label>
          <span>Connection</span>
          <input placeholder="datasource id" {...field('connection')} />
        </label>
        <label>
          <span>Result</span>
          <select {...field('result')}>
            <option value="">any</option>
            <option value="success">success</option>
            <option value="failure">failure</option>
          </select>
        </label>
        <label>
          <span>From</span>
          <input type="datetime-local" {...field('from')} />
        </label>
        <label>
          <span>To</span>
          <input type="datetime-local" {...field('to')} />
        </label>
        <Button type="submit" variant="primary">
          Apply
        </Button>
        <Button
          variant="ghost"
          onClick={() => {
            setDraft(EMPTY);
            setFilters(EMPTY);
            setOffset(0);
          }}
        >
          Clear
        </Button>
      </form>
      {page.isError && (
        <p className="error-text" role="alert">
          {errorText(page.error)}
        </p>
      )}
      {data && (
        <p className="muted small" role="status">
          {data.total === 0
            ? 'No events match.'
            : `Events ${data.offset + 1}–${data.offset + data.events.length} of ${data.total}`}{' '}
          · source: {data.source}
        </p>
      )}
      <div className="grid-wrap">
        <table className="grid" aria-label="Audit events">
          <thead>
            <tr>
              <th>Time</th>
              <th>Type</th>
              <th>Actor</th>
              <th>Connection</th>
              <th>Result</th>
              <th>Details</th>
            </tr>
          </thead>
          <tbody>
            {data?.events.map((e, i) => {
              const key = e.id ?? `${e.at}-${i}`;
              const extra = Object.fromEntries(Object.entries(e).filter(([k]) => !SHOWN.has(k)));
              return (
                <Fragment key={key}>
                  <tr className="clickable" onClick={() => setOpen(open === key ? null : key)}>
                    <td className="nowrap">{new Date(e.at).toLocaleString()}</td>
                    <td>
                      <span className="badge">{e.type}</span>
                    </td>
                    <td>{e.actor ?? ''}</td>
                    <td
                      title={e.connection ? `id ${e.connection}` : undefined}
                      data-testid="audit-connection"
                    >
                      {connectionLabel(e, names)}
                    </td>
                    <td>
                      <span className={`badge result-${e.result}`}>{e.result}</span>
                    </td>
                    <td className="details">{summary(e)}</td>
                  </tr>
                  {open === key && (
                    <tr className="expanded">
                      <td colSpan={6}>
                        <pre>{JSON.stringify(extra, null, 2)}</pre>
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="pager">
        <Button size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          Newer
        </Button>
        <Button
          size="sm"
          disabled={!data || offset + data.events.length >= data.total}
          onClick={() => setOffset(offset + PAGE)}
        >
          Older
        </Button>
      </div>
    </section>
  );
}
