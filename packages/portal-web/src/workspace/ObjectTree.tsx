// Left panel, bottom half: the selected connection's objects (`POST /api/db/objects/list`, one catalog read,
// object rules already applied by the server), grouped by container (schema or database). A container
// expands to its tables, views and so on (with row counts and sizes where the engine reports them);
// clicking an object opens its description, the ER button draws the container's diagram.
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, errorText } from '../lib/api';
import type { DbObject } from '../lib/types';

interface Group {
  key: string;
  label: string;
  objects: DbObject[];
}

function group(objects: DbObject[]): Group[] {
  const byKey = new Map<string, Group>();
  for (const o of objects) {
    const container = o.path.slice(0, -1);
    const key = container.join('\u0000');
    let g = byKey.get(key);
    if (!g) {
      g = { key, label: container.length ? container.join('.') : '(top level)', objects: [] };
      byKey.set(key, g);
    }
    g.objects.push(o);
  }
  const groups = [...byKey.values()];
  for (const g of groups)
    g.objects.sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
  return groups.sort((a, b) => a.label.localeCompare(b.label));
}

export function ObjectTree(props: {
  connectionKey: string;
  descriptor: Record<string, unknown>;
  selectedPath: string[] | undefined;
  onOpen: (o: DbObject) => void;
  onDiagram: (schema: string, objects: DbObject[]) => void;
}) {
  const objects = useQuery({
    queryKey: ['objects', props.connectionKey],
    queryFn: () =>
      api<{ objects: DbObject[] }>('/api/db/objects/list', { body: { connection: props.descriptor } }),
    staleTime: 60_000,
  });
  const groups = useMemo(() => group(objects.data?.objects ?? []), [objects.data]);
  const [open, setOpen] = useState<Record<string, boolean>>({});
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const selected = props.selectedPath?.join('\u0000');

  return (
    <section className="panel-section tree" aria-label="Objects">
      <div className="section-head">
        <h2>Objects</h2>
        <button
          type="button"
          className="icon-btn"
          aria-label="Refresh objects"
          title="Refresh"
          onClick={() => objects.refetch()}
        >
          ↻
        </button>
      </div>
      <input
        className="tree-filter"
        aria-label="Filter objects"
        placeholder="Filter…"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      {objects.isPending && <p className="muted small">Loading objects…</p>}
      {objects.isError && (
        <p className="error-text small" role="alert">
          {errorText(objects.error)}
        </p>
      )}
      {objects.data && groups.length === 0 && <p className="muted small">No objects.</p>}
      <ul className="tree-root">
        {groups.map((g) => {
          const shown = needle ? g.objects.filter((o) => o.name.toLowerCase().includes(needle)) : g.objects;
          if (needle && shown.length === 0) return null;
          const isOpen = needle ? true : (open[g.key] ?? false);
          return (
            <li key={g.key}>
              <button
                type="button"
                className="tree-node container"
                aria-expanded={isOpen}
                onClick={() => setOpen((s) => ({ ...s, [g.key]: !isOpen }))}
              >
                <span className="caret" aria-hidden="true">
                  {isOpen ? '▾' : '▸'}
                </span>
                {g.label}
                <span className="count" aria-hidden="true">
                  {g.objects.length}
                </span>
              </button>
              {g.objects.some((o) => /table/i.test(o.kind)) && (
                <button
                  type="button"
                  className="icon-btn er-btn"
                  aria-label={`ER diagram of ${g.label}`}
                  title="ER diagram from the foreign keys"
                  onClick={() => props.onDiagram(g.label, g.objects)}
                >
                  ER
                </button>
              )}
              {isOpen && (
                <ul>
                  {shown.map((o) => {
                    const k = o.path.join('\u0000');
                    return (
                      <li key={k}>
                        <button
                          type="button"
                          className={`tree-node leaf${selected === k ? ' selected' : ''}`}
                          title={`${o.kind} ${o.path.join('.')}`}
                          onClick={() => props.onOpen(o)}
                        >
                          <span className={`kind kind-${o.kind.replace(/\W+/g, '-')}`} aria-hidden="true">
                            {kindMark(o.kind)}
                          </span>
                          {o.name}
                          {(o.rowCount !== undefined || o.sizeBytes !== undefined) && (
                            <span className="obj-stats muted">
                              {o.rowCount !== undefined ? `${compact(o.rowCount)} rows` : ''}
                              {o.rowCount !== undefined && o.sizeBytes !== undefined ? ' · ' : ''}
                              {o.sizeBytes !== undefined ? bytes(o.sizeBytes) : ''}
                            </span>
                          )}
                        </button>
                      </li>
                    );
                  })}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function compact(n: number): string {
  return new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

function bytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 10 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

function kindMark(kind: string): string {
  const k = kind.toLowerCase();
  if (k.includes('view')) return 'V';
  if (k.includes('table')) return 'T';
  if (k.includes('index')) return 'I';
  if (k.includes('function') || k.includes('procedure')) return 'ƒ';
  if (k.includes('collection')) return 'C';
  if (k.includes('key')) return 'K';
  if (k.includes('sequence')) return 'S';
  if (k.includes('trigger')) return '⚡';
  return k.charAt(0).toUpperCase() || '·';
}
