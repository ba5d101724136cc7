// What a run produced: the results grid (columns from `fields`, row count, execution time, "Load more" when
// `pagination.hasMore`), a plan, the engine's message for a `QUERY_ERROR` (and any other refusal), or the
// notice for a write held for review (403 `APPROVAL_REQUIRED`) with a link to the approvals page.
import { Link } from '../lib/router';
import type { Approval, QueryResult } from '../lib/types';

export type Outcome =
  | {
      kind: 'result';
      sql: string;
      explain?: 'estimate' | 'analyze';
      result: QueryResult;
      rows: Record<string, unknown>[];
    }
  | { kind: 'error'; status: number; code?: string; message: string }
  | { kind: 'approval'; message: string; approval: Approval; guardrail?: string };

const MAX_CELL = 500;

function cell(v: unknown): { text: string; cls?: string } {
  if (v === null || v === undefined) return { text: 'NULL', cls: 'null' };
  if (typeof v === 'object') {
    const s = JSON.stringify(v);
    return { text: s.length > MAX_CELL ? `${s.slice(0, MAX_CELL)}…` : s, cls: 'json' };
  }
  if (typeof v === 'number' || typeof v === 'bigint') return { text: String(v), cls: 'num' };
  if (typeof v === 'boolean') return { text: String(v), cls: 'bool' };
  const s = String(v);
  return { text: s.length > MAX_CELL ? `${s.slice(0, MAX_CELL)}…` : s };
}

const ERROR_TITLES: Record<string, string> = {
  QUERY_ERROR: 'The database reported an error',
  QUERY_TIMEOUT: 'The statement timed out',
  QUERY_CANCELLED: 'The statement was cancelled',
  READ_ONLY: 'This datasource is read-only',
  TICKET_REQUIRED: 'A ticket is required',
  FREEZE_WINDOW: 'Writes are frozen',
  OBJECT_FORBIDDEN: 'Not allowed on this object',
  CONCURRENCY_LIMIT: 'Too many statements are running on this datasource',
  RATE_LIMITED: 'Too many requests',
  CONNECTION_ERROR: 'The database could not be reached',
};

export function ResultsView(props: {
  outcome: Outcome | null;
  loadingMore: boolean;
  onLoadMore: () => void;
}) {
  const o = props.outcome;
  if (!o) return <div className="results empty muted">Run a statement to see its result here.</div>;

  if (o.kind === 'error') {
    return (
      <div className="results">
        <div className="alert alert-error" role="alert">
          <strong>{(o.code && ERROR_TITLES[o.code]) || 'The statement was refused'}</strong>
          {o.code && <span className="badge code">{o.code}</span>}
          <pre className="error-message">{o.message}</pre>
        </div>
      </div>
    );
  }

  if (o.kind === 'approval') {
    const a = o.approval;
    return (
      <div className="results">
        <div className="alert alert-warn" role="alert" aria-label="Approval required">
          <strong>Approval required</strong>
          <p>{o.message}</p>
          <dl className="facts">
            <dt>Request</dt>
            <dd className="mono" data-testid="approval-id">
              {a.id}
            </dd>
            <dt>Status</dt>
            <dd>
              <span className={`badge status-${a.status}`}>{a.status}</span>
            </dd>
            {(o.guardrail ?? a.guardrail) && (
              <>
                <dt>Guardrail</dt>
                <dd>
                  <span className="badge guardrail">{o.guardrail ?? a.guardrail}</span>
                </dd>
              </>
            )}
            <dt>Datasource</dt>
            <dd>{a.datasourceName ?? a.datasourceId}</dd>
          </dl>
          <p>
            A reviewer decides on the <Link href={`/approvals?scope=mine#${a.id}`}>approvals page</Link>. Once
            approved, run exactly the same text again within the approval window.
          </p>
        </div>
      </div>
    );
  }

  const { result, rows } = o;
  const p = result.pagination;
  const noColumns = result.fields.length === 0;
  return (
    <div className="results">
      <div className="result-status" role="status">
        {o.explain ? (
          <span>
            Plan ({o.explain}
            {result.explainFormat ? `, ${result.explainFormat}` : ''})
          </span>
        ) : noColumns ? (
          <span>
            Statement executed. <strong>{result.rowCount}</strong> row{result.rowCount === 1 ? '' : 's'}{' '}
            affected.
          </span>
        ) : (
          <span>
            <strong data-testid="row-count">{rows.length}</strong> row{rows.length === 1 ? '' : 's'}
          </span>
        )}
        <span className="muted">· {result.executionTime} ms</span>
        {p.hasMore && !o.explain && <span className="badge limited">more rows available</span>}
        {result.warnings?.map((w) => (
          <span key={w} className="badge warn" title={w}>
            warning
          </span>
        ))}
      </div>
      {result.warnings && result.warnings.length > 0 && (
        <ul className="warnings">
          {result.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
      {!noColumns && (
        <div className="grid-wrap">
          <table className="grid" aria-label="Results">
            <thead>
              <tr>
                <th className="rownum">#</th>
                {result.fields.map((f) => (
                  <th key={f} scope="col">
                    {f}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own
                <tr key={i}>
                  <td className="rownum">{i + 1}</td>
                  {result.fields.map((f) => {
                    const c = cell(r[f]);
                    return (
                      <td key={f} className={c.cls}>
                        {c.text}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {p.hasMore && !o.explain && (
        <div className="load-more">
          <button type="button" className="btn" onClick={props.onLoadMore} disabled={props.loadingMore}>
            {props.loadingMore ? 'Loading…' : 'Load more'}
          </button>
        </div>
      )}
    </div>
  );
}
