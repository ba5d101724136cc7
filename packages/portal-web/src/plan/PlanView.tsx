// The plan as a readable tree: each operation with the object it touches, its cost, estimated and actual
// rows and time, a bar showing its share of the heaviest measure, and the hot path (root to the heaviest
// leaf) highlighted. The raw rows stay one click away for what the tree does not show.
import { Button } from '@app/web-kit';
import { useState } from 'react';
import { ResultGrid } from '../results/ResultGrid';
import { type PlanNode, parsePlan } from './planTree';

function fmt(n: number | undefined, digits = 2): string | undefined {
  if (n === undefined) return undefined;
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString('en-US');
  return String(Number(n.toFixed(digits)));
}

function NodeView({
  n,
  top,
  metric,
}: {
  n: PlanNode;
  top: number;
  metric: 'timeMs' | 'cost' | 'rows' | undefined;
}) {
  const share = metric && top > 0 ? Math.min(1, (n[metric] ?? 0) / top) : 0;
  const facts = [
    n.cost !== undefined ? `cost ${fmt(n.cost)}` : '',
    n.rows !== undefined ? `est. rows ${fmt(n.rows, 0)}` : '',
    n.actualRows !== undefined ? `rows ${fmt(n.actualRows, 0)}` : '',
    n.timeMs !== undefined ? `${fmt(n.timeMs, 3)} ms` : '',
    n.loops !== undefined && n.loops > 1 ? `${n.loops} loops` : '',
  ].filter(Boolean);
  return (
    <li>
      <div className={`plan-node${n.hot ? ' hot' : ''}`} data-testid="plan-node">
        <div className="plan-line">
          <strong>{n.label}</strong>
          {n.detail && <span className="plan-detail">{n.detail}</span>}
          {n.hot && <span className="badge hot-badge">hot path</span>}
        </div>
        {facts.length > 0 && (
          <div className="plan-facts">
            {facts.map((f) => (
              <span key={f} className="fact">
                {f}
              </span>
            ))}
          </div>
        )}
        {Object.keys(n.extra).length > 0 && (
          <div className="plan-extra muted small">
            {Object.entries(n.extra)
              .slice(0, 4)
              .map(([k, v]) => `${k}: ${v}`)
              .join(' · ')}
          </div>
        )}
        {share > 0 && (
          <div className="plan-bar" aria-hidden="true">
            <span style={{ width: `${Math.max(2, share * 100)}%` }} />
          </div>
        )}
      </div>
      {n.children.length > 0 && (
        <ul>
          {n.children.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: plan nodes have no identity beyond their position
            <NodeView key={i} n={c} top={top} metric={metric} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function PlanView(props: {
  format?: string;
  rows: Record<string, unknown>[];
  fields: string[];
  mode: string;
}) {
  const [raw, setRaw] = useState(false);
  const plan = parsePlan(props.format, props.rows);
  const metric = plan.metric === 'time' ? 'timeMs' : plan.metric === 'none' ? undefined : plan.metric;
  const top = metric ? Math.max(0, ...plan.roots.map((r) => r[metric] ?? 0)) : 0;
  const canTree = plan.roots.length > 0;
  return (
    <div className="plan-view">
      <div className="grid-toolbar">
        <span className="muted small">
          {props.mode} plan{props.format ? ` · ${props.format}` : ''}
          {plan.planningMs !== undefined && ` · planning ${fmt(plan.planningMs, 3)} ms`}
          {plan.executionMs !== undefined && ` · execution ${fmt(plan.executionMs, 3)} ms`}
          {metric && ` · bars and hot path by ${plan.metric}`}
        </span>
        <span className="spacer" />
        {canTree && (
          <Button size="sm" onClick={() => setRaw((r) => !r)}>
            {raw ? 'Show tree' : 'Show raw rows'}
          </Button>
        )}
      </div>
      {canTree && !raw ? (
        <ul className="plan-tree" aria-label="Plan">
          {plan.roots.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <NodeView key={i} n={r} top={top} metric={metric} />
          ))}
        </ul>
      ) : (
        <ResultGrid fields={props.fields} rows={props.rows} masked={new Set()} label="Plan rows" />
      )}
    </div>
  );
}
