// The run as a graph (@xyflow/react, laid out by elkjs): one node per job — a matrix job is one node listing
// its variants — in stage columns, with an edge for every `needs` and, for jobs without needs, from the jobs
// of the stage before (stages run in order). Nodes show live status and ticking durations; clicking a node
// opens its log. The layout is recomputed only when the graph's shape changes, not on every status poll.
import '@xyflow/react/dist/style.css';
import { Background, type Edge, Handle, type Node, type NodeProps, Position, ReactFlow } from '@xyflow/react';
import ELK from 'elkjs/lib/elk.bundled.js';
import { memo, useEffect, useMemo, useState } from 'react';
import type { JobRun, RunDetail } from '../api/types';
import { duration, matrixText } from '../lib/format';
import { useNow } from '../lib/now';

interface JobNodeData extends Record<string, unknown> {
  name: string;
  stage: string;
  variants: JobRun[];
  gate: boolean;
  now: number;
  onOpen(jobRunId: string): void;
}

const WIDTH = 220;
const rowHeight = 20;
const nodeHeight = (variants: number) => 34 + Math.max(1, variants) * rowHeight;

const RANK: Record<string, number> = {
  failed: 6,
  running: 5,
  awaiting_approval: 4,
  queued: 3,
  canceled: 2,
  created: 1,
  skipped: 1,
  success: 0,
};

/** The latest attempt of every job variant, grouped by job name in stage order. */
export function jobGroups(
  run: RunDetail,
): { name: string; stage: string; stageIndex: number; variants: JobRun[] }[] {
  const groups = new Map<
    string,
    { name: string; stage: string; stageIndex: number; variants: Map<string, JobRun> }
  >();
  run.stages.forEach((stage, stageIndex) => {
    for (const job of stage.jobs) {
      let g = groups.get(job.name);
      if (!g) {
        g = { name: job.name, stage: stage.name, stageIndex, variants: new Map() };
        groups.set(job.name, g);
      }
      const key = JSON.stringify(job.matrix);
      const seen = g.variants.get(key);
      if (!seen || job.attempt > seen.attempt) g.variants.set(key, job);
    }
  });
  return [...groups.values()].map((g) => ({ ...g, variants: [...g.variants.values()] }));
}

function JobNode({ data }: NodeProps<Node<JobNodeData>>) {
  const worst = data.variants.reduce(
    (a, j) => ((RANK[j.status] ?? 0) > (RANK[a] ?? 0) ? j.status : a),
    'success',
  );
  return (
    <div className={`graph-node graph-${worst}`} data-testid={`graph-node-${data.name}`}>
      <Handle type="target" position={Position.Left} />
      <div className="graph-node-head">
        <strong>
          {data.name}
          {data.gate && <span className="graph-gate"> approval</span>}
        </strong>
        <span className="muted small">{data.stage}</span>
      </div>
      {data.variants.map((j) => (
        <button
          key={j.id}
          type="button"
          className="graph-variant nodrag"
          onClick={() => data.onOpen(j.id)}
          title={`Open the log of ${j.name}`}
        >
          <span className={`dot dot-${j.status}`} aria-hidden="true" />
          <span className="graph-variant-name">{matrixText(j.matrix) || j.status.replaceAll('_', ' ')}</span>
          <span className="muted small">
            {j.attempt > 1 ? `#${j.attempt} ` : ''}
            {j.started_at ? duration(j.started_at, j.finished_at, data.now) : ''}
          </span>
        </button>
      ))}
      <Handle type="source" position={Position.Right} />
    </div>
  );
}

const nodeTypes = { job: memo(JobNode) };
const elk = new ELK();

interface Shape {
  ids: { id: string; height: number; partition: number }[];
  edges: { id: string; source: string; target: string }[];
}

function shapeOf(run: RunDetail): Shape {
  const groups = jobGroups(run);
  const byStage = new Map<number, string[]>();
  for (const g of groups) byStage.set(g.stageIndex, [...(byStage.get(g.stageIndex) ?? []), g.name]);
  const names = new Set(groups.map((g) => g.name));
  const edges: Shape['edges'] = [];
  for (const g of groups) {
    const needs = (g.variants[0]?.needs ?? []).filter((n) => names.has(n));
    const from = needs.length > 0 ? needs : (byStage.get(g.stageIndex - 1) ?? []);
    for (const source of from) edges.push({ id: `${source}->${g.name}`, source, target: g.name });
  }
  return {
    ids: groups.map((g) => ({ id: g.name, height: nodeHeight(g.variants.length), partition: g.stageIndex })),
    edges,
  };
}

export function RunGraph({ run, onOpen }: { run: RunDetail; onOpen(jobRunId: string): void }) {
  const groups = useMemo(() => jobGroups(run), [run]);
  const shape = useMemo(() => shapeOf(run), [run]);
  const shapeKey = JSON.stringify(shape);
  const [positions, setPositions] = useState<Map<string, { x: number; y: number }> | null>(null);
  const running = groups.some((g) => g.variants.some((j) => !j.finished_at && j.started_at));
  const now = useNow(running);

  useEffect(() => {
    let stale = false;
    const s = JSON.parse(shapeKey) as Shape;
    elk
      .layout({
        id: 'run',
        layoutOptions: {
          'elk.algorithm': 'layered',
          'elk.direction': 'RIGHT',
          'elk.partitioning.activate': 'true',
          'elk.spacing.nodeNode': '18',
          'elk.layered.spacing.nodeNodeBetweenLayers': '56',
          'elk.edgeRouting': 'SPLINES',
        },
        children: s.ids.map((n) => ({
          id: n.id,
          width: WIDTH,
          height: n.height,
          layoutOptions: { 'elk.partitioning.partition': String(n.partition) },
        })),
        edges: s.edges.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
      })
      .then((g) => {
        if (!stale)
          setPositions(new Map((g.children ?? []).map((c) => [c.id, { x: c.x ?? 0, y: c.y ?? 0 }])));
      })
      .catch(() => {
        // A layout failure leaves the table below as the view of the run.
      });
    return () => {
      stale = true;
    };
  }, [shapeKey]);

  const nodes: Node<JobNodeData>[] = groups.map((g) => ({
    id: g.name,
    type: 'job',
    position: positions?.get(g.name) ?? { x: g.stageIndex * (WIDTH + 60), y: 0 },
    data: {
      name: g.name,
      stage: g.stage,
      variants: g.variants,
      gate: g.variants.some((v) => v.gate !== null),
      now,
      onOpen,
    },
    draggable: false,
    connectable: false,
  }));
  const statusOf = new Map(groups.map((g) => [g.name, g.variants.every((v) => v.status === 'success')]));
  const edges: Edge[] = shape.edges.map((e) => ({
    ...e,
    animated: !statusOf.get(e.source),
    className: statusOf.get(e.source) ? 'graph-edge-done' : 'graph-edge',
  }));
  const height = Math.min(
    420,
    40 + Math.max(...shape.ids.map((n) => (positions?.get(n.id)?.y ?? 0) + n.height), 60),
  );

  return (
    <section className="panel" aria-label="Pipeline graph">
      <div className="run-graph" style={{ height }}>
        {positions && (
          <ReactFlow
            nodes={nodes}
            edges={edges}
            nodeTypes={nodeTypes}
            fitView
            fitViewOptions={{ padding: 0.08, maxZoom: 1 }}
            minZoom={0.3}
            maxZoom={1.5}
            nodesConnectable={false}
            nodesDraggable={false}
            proOptions={{ hideAttribution: true }}
          >
            <Background gap={24} size={1} />
          </ReactFlow>
        )}
      </div>
    </section>
  );
}
