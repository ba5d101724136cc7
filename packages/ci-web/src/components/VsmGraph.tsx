// The project's value-stream map drawn as plain SVG, left to right. Pipelines sit one column right of their
// furthest upstream pipeline; each git material sits just left of the first pipeline it feeds. Within a
// column, nodes are ordered by the average row of what feeds them, which keeps most edges straight; an edge
// that skips columns is routed through a lane below the columns it passes, never through a box.
import type { MouseEvent } from 'react';
import type { VsmEdge, VsmNode } from '../api/types';
import { shortSha } from '../lib/format';
import { navigate } from '../lib/router';
import { runHref } from './RunsTable';

const W = 230;
const H = 76;
const GAP_X = 80;
const GAP_Y = 22;
const PAD = 12;

interface Placed {
  node: VsmNode;
  col: number;
  row: number;
  x: number;
  y: number;
}

export interface VsmLayout {
  placed: Map<string, Placed>;
  /** Lowest box edge per column, for routing edges that skip columns. */
  bottom: Map<number, number>;
  width: number;
  height: number;
}

function columns(nodes: VsmNode[], edges: VsmEdge[], preds: Map<string, string[]>): Map<string, number> {
  const col = new Map<string, number>();
  const pipelines = nodes.filter((n) => n.kind === 'pipeline');
  const isPipeline = new Set(pipelines.map((n) => n.id));
  for (const n of pipelines) col.set(n.id, 1);
  // Longest-path ranks over upstream edges by relaxation; bounded by the node count so a cycle cannot
  // loop forever.
  for (let round = 0; round < pipelines.length; round++) {
    let changed = false;
    for (const n of pipelines) {
      const ups = (preds.get(n.id) ?? []).filter((p) => isPipeline.has(p));
      const want = Math.max(1, ...ups.map((p) => (col.get(p) ?? 1) + 1));
      if (want !== col.get(n.id) && want <= pipelines.length) {
        col.set(n.id, want);
        changed = true;
      }
    }
    if (!changed) break;
  }
  for (const n of nodes) {
    if (isPipeline.has(n.id)) continue;
    const targets = edges
      .filter((e) => e.from === n.id && isPipeline.has(e.to))
      .map((e) => col.get(e.to) ?? 1);
    col.set(n.id, targets.length ? Math.min(...targets) - 1 : 0);
  }
  return col;
}

export function layoutVsm(nodes: VsmNode[], edges: VsmEdge[]): VsmLayout {
  const ids = new Set(nodes.map((n) => n.id));
  const preds = new Map<string, string[]>();
  for (const e of edges) {
    if (!ids.has(e.from) || !ids.has(e.to) || e.from === e.to) continue;
    preds.set(e.to, [...(preds.get(e.to) ?? []), e.from]);
  }
  const col = columns(nodes, edges, preds);
  const byCol = new Map<number, VsmNode[]>();
  for (const n of nodes) byCol.set(col.get(n.id)!, [...(byCol.get(col.get(n.id)!) ?? []), n]);
  // Columns with nothing in them are closed up.
  const used = [...byCol.keys()].sort((a, b) => a - b);
  const row = new Map<string, number>();
  const placed = new Map<string, Placed>();
  const bottom = new Map<number, number>();
  used.forEach((c, index) => {
    const list = byCol.get(c)!;
    const weight = (n: VsmNode) => {
      const rows = (preds.get(n.id) ?? []).map((p) => row.get(p)).filter((r): r is number => r !== undefined);
      return rows.length ? rows.reduce((a, b) => a + b, 0) / rows.length : Number.MAX_SAFE_INTEGER;
    };
    // Nodes without predecessors (materials, first pipelines) keep their order, after the others.
    const ordered = list.map((n, i) => ({ n, i, w: weight(n) })).sort((a, b) => a.w - b.w || a.i - b.i);
    ordered.forEach(({ n }, r) => {
      row.set(n.id, r);
      placed.set(n.id, {
        node: n,
        col: index,
        row: r,
        x: PAD + index * (W + GAP_X),
        y: PAD + r * (H + GAP_Y),
      });
    });
    bottom.set(index, PAD + ordered.length * (H + GAP_Y) - GAP_Y);
  });
  const all = [...placed.values()];
  let height = Math.max(0, ...all.map((p) => p.y + H)) + PAD;
  for (const e of edges) {
    const a = placed.get(e.from);
    const b = placed.get(e.to);
    if (a && b && b.col - a.col > 1) height = Math.max(height, laneY(bottom, a.col, b.col) + PAD);
  }
  return { placed, bottom, width: Math.max(0, ...all.map((p) => p.x + W)) + PAD, height };
}

function laneY(bottom: Map<number, number>, from: number, to: number): number {
  let y = 0;
  for (let c = from + 1; c < to; c++) y = Math.max(y, bottom.get(c) ?? 0);
  return y + GAP_Y / 2 + 4;
}

function edgePath(layout: VsmLayout, a: Placed, b: Placed): string {
  const x1 = a.x + W;
  const y1 = a.y + H / 2;
  const x2 = b.x;
  const y2 = b.y + H / 2;
  if (b.col - a.col <= 1) {
    const bend = Math.max(30, (x2 - x1) / 2);
    return `M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}`;
  }
  const lane = laneY(layout.bottom, a.col, b.col);
  const inX = x1 + GAP_X / 2;
  const outX = x2 - GAP_X / 2;
  return `M${x1},${y1} C${inX},${y1} ${x1},${lane} ${inX},${lane} L${outX},${lane} C${x2},${lane} ${outX},${y2} ${x2},${y2}`;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function repoName(url: string): string {
  const clean = url.replace(/\.git$/, '').replace(/\/+$/, '');
  const parts = clean.split(/[/:]/).filter(Boolean);
  return parts.slice(-2).join('/') || url;
}

export function VsmGraph({ nodes, edges }: { nodes: VsmNode[]; edges: VsmEdge[] }) {
  if (nodes.length === 0) return <p className="muted">Nothing to draw yet.</p>;
  const layout = layoutVsm(nodes, edges);
  const { placed, width, height } = layout;
  const all = [...placed.values()];
  const go = (href: string) => (e: MouseEvent) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    navigate(href);
  };
  return (
    <figure className="vsm" aria-label="Value-stream map">
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
        <title>Materials and pipelines of the project, left to right</title>
        <defs>
          <marker
            id="vsm-arrow"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto"
          >
            <path d="M0,0 L10,5 L0,10 z" className="vsm-arrowhead" />
          </marker>
        </defs>
        {edges.map((e) => {
          const a = placed.get(e.from);
          const b = placed.get(e.to);
          if (!a || !b) return null;
          const x2 = b.x;
          // Labels sit over the last gap before the target, where the edge is on its own.
          const fromY = b.col - a.col > 1 ? laneY(layout.bottom, a.col, b.col) : a.y + H / 2;
          const ly = (fromY + b.y + H / 2) / 2 - 6;
          return (
            <g key={`${e.from}->${e.to}`} className={`vsm-edge vsm-edge-${e.kind}`}>
              <path d={edgePath(layout, a, b)} markerEnd="url(#vsm-arrow)" />
              {e.kind === 'upstream' && e.stage && (
                <text x={x2 - GAP_X / 2} y={ly} textAnchor="middle" className="vsm-edge-label">
                  {cut(`${e.stage}${e.status ? ` ${e.status}` : ''}`, 18)}
                </text>
              )}
            </g>
          );
        })}
        {all.map(({ node: n, x, y }) =>
          n.kind === 'pipeline' ? (
            <PipelineBox key={n.id} node={n} x={x} y={y} go={go} />
          ) : (
            <g key={n.id} className="vsm-node vsm-material" transform={`translate(${x},${y})`}>
              <title>{`${n.url ?? ''} (${n.branch ?? ''})`}</title>
              <rect width={W} height={H} rx={8} />
              <text x={12} y={22} className="vsm-kind">
                GIT
              </text>
              <text x={44} y={22} className="vsm-title">
                {cut(repoName(n.url ?? n.id), 24)}
              </text>
              <text x={12} y={44} className="vsm-sub">
                {cut(`branch ${n.branch ?? '—'}`, 32)}
              </text>
              <text x={12} y={63} className="vsm-sub mono">
                {n.latest_modification
                  ? cut(shortSha(n.latest_modification.revision), 32)
                  : 'no revision seen yet'}
              </text>
            </g>
          ),
        )}
      </svg>
    </figure>
  );
}

function PipelineBox(props: {
  node: VsmNode;
  x: number;
  y: number;
  go: (href: string) => (e: MouseEvent) => void;
}) {
  const { node: n, x, y } = props;
  const run = n.latest_run ?? null;
  const status = run?.status ?? 'none';
  const body = (
    <>
      <title>{`pipeline ${n.name}${run ? `: run #${run.counter} ${run.status}` : ''}`}</title>
      <rect width={W} height={H} rx={8} />
      <rect width={6} height={H} rx={3} className={`vsm-stripe vsm-status-${status}`} />
      <text x={16} y={22} className="vsm-title">
        {cut(n.name ?? '', 26)}
      </text>
      <text x={16} y={44} className="vsm-sub">
        {run ? `#${run.counter} ${run.status}` : 'never run'}
        {n.has_services ? ' · services' : ''}
      </text>
      <text x={16} y={63} className="vsm-sub">
        {cut(
          n.crons && n.crons.length > 0
            ? `cron ${n.crons.join(', ')}`
            : `${(n.stages ?? []).length} stage(s)`,
          32,
        )}
      </text>
    </>
  );
  if (!run)
    return (
      <g className="vsm-node vsm-pipeline" transform={`translate(${x},${y})`}>
        {body}
      </g>
    );
  const href = runHref(run.id);
  return (
    <a href={href} onClick={props.go(href)} aria-label={`${n.name} run #${run.counter}`}>
      <g className="vsm-node vsm-pipeline" transform={`translate(${x},${y})`}>
        {body}
      </g>
    </a>
  );
}
