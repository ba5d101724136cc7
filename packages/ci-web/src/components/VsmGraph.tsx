// The project's value-stream map, laid out by elkjs (layered, left to right, orthogonal edges) and drawn as
// SVG: git materials feed pipelines, upstream pipelines feed downstream ones (the edge says which stage and
// status trigger). Each pipeline shows its latest run with the revision that flowed through it; each material
// shows the latest revision seen. The layout is computed only when the map's shape changes, not on every poll,
// and this module (with elkjs, shared with the run graph) is its own chunk loaded by the project page.
import ELK, { type ElkExtendedEdge, type ElkNode } from 'elkjs/lib/elk.bundled.js';
import { type MouseEvent, useEffect, useMemo, useState } from 'react';
import type { VsmEdge, VsmNode } from '../api/types';
import { ago, shortSha } from '../lib/format';
import { navigate } from '../lib/router';
import { runStateText } from './RunState';
import { runHref } from './RunsTable';

const W = 236;
const H = 84;
const PAD = 12;
/** Edge labels are measured by an estimate (SVG text cannot be measured before it is drawn). */
const LABEL_CHAR_W = 6.4;
const LABEL_H = 14;

const elk = new ELK();

interface Point {
  x: number;
  y: number;
}

export interface VsmLayout {
  nodes: Map<string, Point>;
  edges: Map<string, { points: Point[]; label: (Point & { text: string }) | null }>;
  width: number;
  height: number;
}

const edgeId = (e: VsmEdge) => `${e.from}->${e.to}`;
const edgeLabel = (e: VsmEdge) =>
  e.kind === 'upstream' && e.stage ? `${e.stage}${e.status ? ` ${e.status}` : ''}` : '';

/** The map's shape: what the layout depends on (not run statuses, which change on every poll). */
function shapeOf(nodes: VsmNode[], edges: VsmEdge[]): string {
  const ids = new Set(nodes.map((n) => n.id));
  return JSON.stringify({
    nodes: nodes.map((n) => n.id),
    edges: edges
      .filter((e) => ids.has(e.from) && ids.has(e.to) && e.from !== e.to)
      .map((e) => [e.from, e.to, edgeLabel(e)]),
  });
}

export async function layoutVsm(shape: string): Promise<VsmLayout> {
  const s = JSON.parse(shape) as { nodes: string[]; edges: [string, string, string][] };
  const graph: ElkNode = {
    id: 'vsm',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.layered.spacing.nodeNodeBetweenLayers': '70',
      'elk.spacing.nodeNode': '24',
      'elk.spacing.edgeLabel': '4',
      'elk.edgeLabels.placement': 'CENTER',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.padding': `[top=${PAD},left=${PAD},bottom=${PAD},right=${PAD}]`,
    },
    children: s.nodes.map((id) => ({ id, width: W, height: H })),
    edges: s.edges.map(([from, to, label]) => ({
      id: `${from}->${to}`,
      sources: [from],
      targets: [to],
      labels: label
        ? [{ id: `label:${from}->${to}`, text: label, width: label.length * LABEL_CHAR_W, height: LABEL_H }]
        : [],
    })),
  };
  const out = await elk.layout(graph);
  const nodes = new Map((out.children ?? []).map((c) => [c.id, { x: c.x ?? 0, y: c.y ?? 0 }]));
  const edges: VsmLayout['edges'] = new Map();
  for (const e of (out.edges ?? []) as ElkExtendedEdge[]) {
    const points = (e.sections ?? []).flatMap((sec) => [
      sec.startPoint,
      ...(sec.bendPoints ?? []),
      sec.endPoint,
    ]);
    const l = e.labels?.[0];
    edges.set(e.id, {
      points,
      label: l?.text
        ? { x: (l.x ?? 0) + (l.width ?? 0) / 2, y: (l.y ?? 0) + LABEL_H - 3, text: l.text }
        : null,
    });
  }
  return { nodes, edges, width: out.width ?? 0, height: out.height ?? 0 };
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function repoName(url: string): string {
  const clean = url.replace(/\.git$/, '').replace(/\/+$/, '');
  const parts = clean.split(/[/:]/).filter(Boolean);
  return parts.slice(-2).join('/') || url;
}

const pathOf = (points: Point[]) => points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ');

export function VsmGraph({ nodes, edges }: { nodes: VsmNode[]; edges: VsmEdge[] }) {
  const shape = useMemo(() => shapeOf(nodes, edges), [nodes, edges]);
  const [layout, setLayout] = useState<{ shape: string; layout: VsmLayout } | null>(null);
  const [failed, setFailed] = useState<unknown>(null);
  useEffect(() => {
    let stale = false;
    layoutVsm(shape)
      .then((l) => {
        if (stale) return;
        setLayout({ shape, layout: l });
        setFailed(null);
      })
      .catch((err) => {
        if (!stale) setFailed(err);
      });
    return () => {
      stale = true;
    };
  }, [shape]);
  if (nodes.length === 0) return <p className="muted">Nothing to draw yet: apply a pipeline first.</p>;
  if (failed) return <p className="danger-text">The map could not be laid out: {String(failed)}</p>;
  // Until the new shape is laid out the previous one stays (a pipeline added by a poll does not blank it).
  if (!layout) return <p className="muted loading">Laying out the map…</p>;
  const { layout: l } = layout;
  const go = (href: string) => (e: MouseEvent) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    navigate(href);
  };
  return (
    <figure className="vsm" aria-label="Value-stream map">
      <svg width={l.width} height={l.height} viewBox={`0 0 ${l.width} ${l.height}`}>
        <title>Materials and pipelines of the project, upstream on the left, downstream on the right</title>
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
          const drawn = l.edges.get(edgeId(e));
          if (!drawn || drawn.points.length < 2) return null;
          return (
            <g key={edgeId(e)} className={`vsm-edge vsm-edge-${e.kind}`} data-testid={`vsm-edge-${e.kind}`}>
              <path d={pathOf(drawn.points)} markerEnd="url(#vsm-arrow)" />
              {drawn.label && (
                <text x={drawn.label.x} y={drawn.label.y} textAnchor="middle" className="vsm-edge-label">
                  {drawn.label.text}
                </text>
              )}
            </g>
          );
        })}
        {nodes.map((n) => {
          const at = l.nodes.get(n.id);
          if (!at) return null;
          return n.kind === 'pipeline' ? (
            <PipelineBox key={n.id} node={n} at={at} go={go} />
          ) : (
            <MaterialBox key={n.id} node={n} at={at} />
          );
        })}
      </svg>
    </figure>
  );
}

function MaterialBox({ node: n, at }: { node: VsmNode; at: Point }) {
  const mod = n.latest_modification;
  return (
    <g
      className="vsm-node vsm-material"
      transform={`translate(${at.x},${at.y})`}
      data-testid={`vsm-material-${repoName(n.url ?? n.id)}`}
    >
      <title>{`${n.url ?? ''} (${n.branch ?? ''})${mod?.message ? `\n${mod.message}` : ''}`}</title>
      <rect width={W} height={H} rx={8} />
      <text x={12} y={22} className="vsm-kind">
        GIT
      </text>
      <text x={44} y={22} className="vsm-title">
        {cut(repoName(n.url ?? n.id), 24)}
      </text>
      <text x={12} y={44} className="vsm-sub">
        {cut(`branch ${n.branch ?? '—'}`, 34)}
      </text>
      <text x={12} y={66} className="vsm-sub mono">
        {mod
          ? cut(`${shortSha(mod.revision)}${mod.author ? ` · ${mod.author}` : ''}`, 34)
          : // Modifications come from webhooks and polling; a manual run resolves the head without one.
            'no push or poll yet'}
      </text>
    </g>
  );
}

function PipelineBox(props: { node: VsmNode; at: Point; go: (href: string) => (e: MouseEvent) => void }) {
  const { node: n, at } = props;
  const run = n.latest_run ?? null;
  const status = run?.status ?? 'none';
  const body = (
    <g
      className="vsm-node vsm-pipeline"
      transform={`translate(${at.x},${at.y})`}
      data-testid={`vsm-pipeline-${n.name}`}
    >
      <title>{`pipeline ${n.name}${run ? `: run #${run.counter} ${runStateText(run)}` : ''}`}</title>
      <rect width={W} height={H} rx={8} />
      <rect width={6} height={H} rx={3} className={`vsm-stripe vsm-status-${status}`} />
      <text x={16} y={22} className="vsm-title">
        {cut(n.name ?? '', 24)}
      </text>
      <text x={16} y={44} className="vsm-sub">
        {/* A run at a gate or held back says so, as the pipelines table beside the map does. */}
        {run ? `#${run.counter} ${runStateText(run)} · ${ago(run.created_at)}` : 'never run'}
        {n.has_services ? ' · services' : ''}
      </text>
      <text x={16} y={66} className="vsm-sub mono">
        {cut(
          run?.revision
            ? `rev ${shortSha(run.revision)}${run.git_ref && run.git_ref !== run.revision ? ` (${run.git_ref})` : ''}`
            : n.crons && n.crons.length > 0
              ? `cron ${n.crons.join(', ')}`
              : `${(n.stages ?? []).length} stage(s)`,
          30,
        )}
      </text>
    </g>
  );
  if (!run) return body;
  const href = runHref(run.id);
  return (
    <a href={href} onClick={props.go(href)} aria-label={`${n.name} run #${run.counter}`}>
      {body}
    </a>
  );
}
