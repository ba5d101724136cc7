// The results area: one result (grid or chart, paging with `hasMore`: next page or everything up to the
// datasource ceiling), a script's per-statement results side by side, a plan, an error in words a person
// acts on, or a held write with its live approval status.
import { Button, Tabs } from '@app/web-kit';
import { lazy, Suspense, useState } from 'react';
import { ApprovalNotice } from '../governance/ApprovalNotice';
import { PlanView } from '../plan/PlanView';
import { typedPlanFormat } from '../plan/planTree';
import { errorTitle, type Outcome, type ScriptStatement } from './outcome';
import { ResultGrid } from './ResultGrid';

const ChartView = lazy(() => import('./ChartView').then((m) => ({ default: m.ChartView })));

export interface ResultsViewProps {
  outcome: Outcome | null;
  masked: Set<string>;
  approvalsRequired?: number;
  pageable: boolean;
  loadingMore: boolean;
  onLoadMore: (all: boolean) => void;
  onRerun: (sql: string) => void;
}

function GridOrChart(props: {
  fields: string[];
  rows: Record<string, unknown>[];
  columnTypes?: Record<string, string>;
  masked: Set<string>;
}) {
  const [view, setView] = useState<'grid' | 'chart'>('grid');
  return (
    <>
      <Tabs
        items={[
          { id: 'grid', label: 'Grid' },
          { id: 'chart', label: 'Chart & pivot' },
        ]}
        value={view}
        onChange={(id) => setView(id as typeof view)}
        label="Result view"
      />
      {view === 'grid' ? (
        <ResultGrid
          fields={props.fields}
          rows={props.rows}
          columnTypes={props.columnTypes}
          masked={props.masked}
        />
      ) : (
        <Suspense fallback={<p className="muted small">Loading charts…</p>}>
          <ChartView fields={props.fields} rows={props.rows} />
        </Suspense>
      )}
    </>
  );
}

function ErrorBox(props: { status: number; code?: string; message: string }) {
  const { title, hint } = errorTitle(props.code, props.status);
  return (
    <div className="alert alert-error" role="alert">
      <strong>{title}</strong>
      {props.code && <span className="badge code">{props.code}</span>}
      <pre className="error-message">{props.message}</pre>
      {hint && <p className="hint">{hint}</p>}
    </div>
  );
}

function ScriptResults(props: {
  texts: string[];
  executedCount: number;
  statements: ScriptStatement[];
  masked: Set<string>;
}) {
  const firstWithRows = props.statements.find((s) => s.fields && s.fields.length > 0);
  const failed = props.statements.find((s) => s.status === 'failed');
  const [active, setActive] = useState(
    failed?.index ?? firstWithRows?.index ?? props.statements[0]?.index ?? 0,
  );
  const current = props.statements.find((s) => s.index === active);
  const notRun = props.texts.length - props.statements.length;
  return (
    <div className="script-results">
      <div className="result-status" role="status">
        <span>
          Script: <strong data-testid="executed-count">{props.executedCount}</strong> of {props.texts.length}{' '}
          statement
          {props.texts.length === 1 ? '' : 's'} ran
          {failed ? `; statement ${failed.index + 1} failed` : ''}
          {notRun > 0 ? `; ${notRun} not run` : ''}
        </span>
      </div>
      <div className="result-tabs" role="tablist" aria-label="Statement results">
        {props.statements.map((s) => (
          <button
            key={s.index}
            type="button"
            role="tab"
            aria-selected={s.index === active}
            className={`tab-btn ${s.status}${s.index === active ? ' active' : ''}`}
            title={props.texts[s.index]}
            onClick={() => setActive(s.index)}
          >
            {s.status === 'failed' ? '✕' : '✓'} {s.index + 1}:{' '}
            {s.status === 'failed'
              ? 'failed'
              : s.fields?.length
                ? `${s.rows?.length ?? 0} rows`
                : `${s.rowCount ?? 0} affected`}
          </button>
        ))}
      </div>
      {current && (
        <div className="statement-result">
          <pre className="statement-text">{props.texts[current.index]}</pre>
          <p className="muted small">
            {current.durationMs} ms
            {current.truncated ? ' · rows cut at the script limit (500 per statement)' : ''}
          </p>
          {current.status === 'failed' ? (
            <ErrorBox status={400} code="QUERY_ERROR" message={current.error ?? 'The statement failed.'} />
          ) : current.fields && current.fields.length > 0 ? (
            <GridOrChart fields={current.fields} rows={current.rows ?? []} masked={props.masked} />
          ) : (
            <p>
              Statement executed. <strong>{current.rowCount ?? 0}</strong> row
              {current.rowCount === 1 ? '' : 's'} affected.
            </p>
          )}
        </div>
      )}
    </div>
  );
}

export function ResultsView(props: ResultsViewProps) {
  const o = props.outcome;
  if (!o) {
    return (
      <div className="results empty muted">
        Run a statement to see its result here — Ctrl/⌘-Enter runs the statement under the cursor or the
        selection, Ctrl/⌘-Shift-Enter the whole script.
      </div>
    );
  }
  if (o.kind === 'error') {
    return (
      <div className="results">
        <ErrorBox status={o.status} code={o.code} message={o.message} />
      </div>
    );
  }
  if (o.kind === 'approval') {
    return (
      <div className="results">
        <ApprovalNotice
          key={o.approval.id}
          approval={o.approval}
          message={o.message}
          guardrail={o.guardrail}
          approvalsRequired={props.approvalsRequired}
          onApproved={() => props.onRerun(o.sql)}
        />
      </div>
    );
  }
  if (o.kind === 'plan') {
    return (
      <div className="results">
        <div className="result-status" role="status">
          <span>
            Plan ({o.mode}
            {o.result.explainFormat ? `, ${o.result.explainFormat}` : ''})
          </span>
          <span className="muted">· {o.result.executionTime} ms</span>
        </div>
        <PlanView
          format={o.result.explainFormat}
          rows={o.result.rows}
          fields={o.result.fields}
          mode={o.mode}
        />
      </div>
    );
  }
  if (o.kind === 'script') {
    return (
      <div className="results">
        <ScriptResults
          texts={o.texts}
          executedCount={o.executedCount}
          statements={o.statements}
          masked={props.masked}
        />
      </div>
    );
  }
  const { result, rows } = o;
  const p = result.pagination;
  const noColumns = result.fields.length === 0;
  const hasMore = p.hasMore && props.pageable;
  // A typed EXPLAIN QUERY PLAN is a plan too: drawn as the tree the Explain button shows.
  const typedPlan = typedPlanFormat(result.fields);
  return (
    <div className="results">
      <div className="result-status" role="status">
        {noColumns ? (
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
        {p.hasMore && <span className="badge limited">more rows available</span>}
        {p.hasMore && !props.pageable && (
          <span className="muted small">the result stops at {p.limit} rows</span>
        )}
        {hasMore && (
          <span className="btn-group">
            <Button size="sm" onClick={() => props.onLoadMore(false)} disabled={props.loadingMore}>
              {props.loadingMore ? 'Loading…' : 'Load more'}
            </Button>
            <Button size="sm" onClick={() => props.onLoadMore(true)} disabled={props.loadingMore}>
              Fetch all
            </Button>
          </span>
        )}
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
      {!noColumns &&
        (typedPlan ? (
          <PlanView format={typedPlan} rows={rows} fields={result.fields} mode="estimate" />
        ) : (
          <GridOrChart
            fields={result.fields}
            rows={rows}
            columnTypes={result.columnTypes as Record<string, string> | undefined}
            masked={props.masked}
          />
        ))}
    </div>
  );
}
