// The ER diagram of one schema (its own chunk, loaded on first open): every table described through the
// object surface (at most MAX_TABLES, four requests at a time), laid out by elkjs (layered, left to right
// along the foreign keys) and drawn with @xyflow/react — pan, zoom, fit, and a click on a table describes it.
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
} from '@xyflow/react';
import ELK from 'elkjs/lib/elk.bundled.js';
import { api, errorText } from '../lib/api';
import type { DbObject, ObjectDetail } from '../lib/types';
import { type ErTable, erModel } from './erModel';

const MAX_TABLES = 80;
const ROW = 18;
const WIDTH = 220;

async function describeAll(
  descriptor: Record<string, unknown>,
  objects: DbObject[],
): Promise<ObjectDetail[]> {
  const out: ObjectDetail[] = [];
  const queue = [...objects];
  const worker = async () => {
    for (let o = queue.shift(); o; o = queue.shift()) {
      try {
        out.push(
          await api<ObjectDetail>('/api/db/objects/describe', {
            body: { connection: descriptor, path: o.path },
          }),
        );
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
      'elk.layered.spacing.nodeNodeBetweenLayers': '80',
    },
    children: tables.map((t) => ({ id: t.id, width: WIDTH, height: 30 + t.columns.length * ROW })),
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
            nodes={graph.data.nodes}
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
            <MiniMap pannable zoomable position="top-right" style={{ width: 140, height: 90 }} />
          </ReactFlow>
        )}
      </div>
    </section>
  );
}
