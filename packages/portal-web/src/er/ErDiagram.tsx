// The ER diagram of one schema (its own chunk, loaded on first open): every table described through the
// object surface (at most MAX_TABLES, four requests at a time), laid out by elkjs (layered, left to right
// along the foreign keys) and drawn with @xyflow/react — pan, zoom, fit, a minimap, tables can be dragged,
// and a click on a table describes it.
import '@xyflow/react/dist/style.css';
import { useQuery } from '@tanstack/react-query';
import {
  Background,
  Controls,
  type Edge,
  Handle,
  MiniMap,
  type Node,
  Position,
  ReactFlow,
  useNodesState,
} from '@xyflow/react';
import ELK from 'elkjs/lib/elk.bundled.js';
import { useEffect } from 'react';
import { apiPost, errorText } from '../lib/api';
import type { DbObject, ObjectDetail } from '../lib/types';
import { type ErTable, erModel } from './erModel';

const MAX_TABLES = 80;
// A table box's size (ide.css `.er-table`: 220 px wide, 18 px per column under a ~30 px title); the layout
// and the minimap use it until the browser has measured the box.
const ROW = 18;
const WIDTH = 220;
const height = (t: ErTable) => 30 + t.columns.length * ROW;

async function describeAll(
  descriptor: Record<string, unknown>,
  objects: DbObject[],
): Promise<ObjectDetail[]> {
  const out: ObjectDetail[] = [];
  const queue = [...objects];
  const worker = async () => {
    for (let o = queue.shift(); o; o = queue.shift()) {
      try {
        out.push(await apiPost('/api/db/objects/describe', { connection: descriptor, path: o.path }));
      } catch {
        // A table that cannot be described (hidden meanwhile, dropped) is left out of the picture.
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return out;
}

async function layout(tables: ErTable[], edges: { id: string; source: string; target: string }[]) {
  const elk = new ELK();
  const graph = await elk.layout({
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.spacing.nodeNode': '40',
      // Wide enough between layers for an edge's label (`customer_id → id`).
      'elk.layered.spacing.nodeNodeBetweenLayers': '160',
    },
    children: tables.map((t) => ({ id: t.id, width: WIDTH, height: height(t) })),
    edges: edges.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  });
  return new Map((graph.children ?? []).map((c) => [c.id, { x: c.x ?? 0, y: c.y ?? 0 }]));
}

function TableNode({ data }: { data: { table: ErTable } }) {
  const t = data.table;
  return (
    <div className="er-table" data-testid="er-table">
      <Handle type="target" position={Position.Left} />
      <div className="er-title">{t.name}</div>
      <ul>
        {t.columns.map((c) => (
          <li key={c.name}>
            <span className="er-key">{c.pk ? 'PK' : c.fk ? 'FK' : ''}</span>
            <span className="er-col">{c.name}</span>
            <span className="er-type">{c.type}</span>
          </li>
        ))}
      </ul>
      <Handle type="source" position={Position.Right} />
    </div>
  );
}

const nodeTypes = { table: TableNode };

export default function ErDiagram(props: {
  connectionKey: string;
  descriptor: Record<string, unknown>;
  schema: string;
  objects: DbObject[];
  dark: boolean;
  onDescribe: (o: DbObject) => void;
  onClose: () => void;
}) {
  const tablesOnly = props.objects
    .filter((o) => /table/i.test(o.kind) && !/view/i.test(o.kind))
    .slice(0, MAX_TABLES);
  const graph = useQuery({
    queryKey: ['er', props.connectionKey, props.schema, tablesOnly.map((o) => o.name).join(',')],
    queryFn: async () => {
      const details = await describeAll(props.descriptor, tablesOnly);
      const model = erModel(details);
      const pos = await layout(model.tables, model.edges);
      const nodes: Node[] = model.tables.map((t) => ({
        id: t.id,
        type: 'table',
        position: pos.get(t.id) ?? { x: 0, y: 0 },
        // Without a size the minimap draws nothing for a node it has not seen measured.
        initialWidth: WIDTH,
        initialHeight: height(t),
        data: { table: t },
      }));
      const edges: Edge[] = model.edges.map((e) => ({
        ...e,
        type: 'smoothstep',
        animated: false,
        label: e.label,
      }));
      return { nodes, edges, count: model.tables.length, links: model.edges.length };
    },
    staleTime: 60_000,
  });
  // The nodes live in state so the measured sizes and dragged positions reach them (and the minimap).
  const [nodes, setNodes, onNodesChange] = useNodesState<Node>([]);
  useEffect(() => setNodes(graph.data?.nodes ?? []), [graph.data, setNodes]);
  const byId = new Map(tablesOnly.map((o) => [o.path.join('.'), o]));
  return (
    <section className="er card" aria-label={`ER diagram ${props.schema}`}>
      <div className="section-head">
        <h2>ER diagram · {props.schema}</h2>
        {graph.data && (
          <span className="muted small" data-testid="er-summary">
            {graph.data.count} tables · {graph.data.links} foreign keys
            {props.objects.length > MAX_TABLES ? ` (first ${MAX_TABLES} shown)` : ''}
          </span>
        )}
        <span className="spacer" />
        <button type="button" className="icon-btn" aria-label="Close diagram" onClick={props.onClose}>
          ✕
        </button>
      </div>
      <div className="er-canvas">
        {graph.isPending && <p className="muted small">Reading tables and foreign keys…</p>}
        {graph.isError && (
          <p className="error-text small" role="alert">
            {errorText(graph.error)}
          </p>
        )}
        {graph.data && graph.data.count === 0 && <p className="muted small">This schema has no tables.</p>}
        {graph.data && graph.data.count > 0 && (
          <ReactFlow
            nodes={nodes}
            onNodesChange={onNodesChange}
            edges={graph.data.edges}
            nodeTypes={nodeTypes}
            colorMode={props.dark ? 'dark' : 'light'}
            fitView
            fitViewOptions={{ padding: 0.15, maxZoom: 1 }}
            minZoom={0.1}
            nodesConnectable={false}
            onNodeClick={(_e, n) => {
              const o = byId.get(n.id);
              if (o) props.onDescribe(o);
            }}
          >
            <Background />
            <Controls />
            <MiniMap
              pannable
              zoomable
              position="top-right"
              ariaLabel="Diagram overview"
              style={{ width: 160, height: 110 }}
              // The kit's tokens (React Flow passes these strings on as CSS variables, so var() resolves).
              nodeColor="var(--kit-info-bg)"
              nodeStrokeColor="var(--kit-info)"
              nodeStrokeWidth={2}
              maskColor="var(--kit-accent-soft)"
            />
          </ReactFlow>
        )}
      </div>
    </section>
  );
}
