// The managed datasources that seed data and account provisioning work on, and the picker both forms show.
// The server decides the family from the engine's SQL dialect (portal-server src/seed/family.ts: the
// PostgreSQL- and MySQL-style dialects), so the page asks provider-meta for each engine's dialect instead of
// keeping its own list of engine ids: an engine that speaks one of those dialects is offered without a change
// here.
import { useManagedConnections } from '../lib/connections';
import { useEngines } from '../lib/engines';
import type { Connection } from '../lib/types';

const FAMILY_DIALECTS = new Set(['postgres', 'mysql']);

/** Managed datasources whose engine speaks a PostgreSQL- or MySQL-style dialect (empty while loading). */
export function useSqlFamilyDatasources(): Connection[] {
  const managed = useManagedConnections();
  const engines = useEngines();
  const family = new Set(
    (engines.data ?? []).filter((e) => FAMILY_DIALECTS.has(e.dialect)).map((e) => e.engine),
  );
  return (managed.data ?? []).filter((c) => family.has(c.type));
}

export function DatasourceSelect(props: {
  candidates: Connection[];
  value: string;
  onChange: (id: string) => void;
}) {
  return (
    <label>
      <span>Datasource</span>
      <select aria-label="Datasource" value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.candidates.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name} ({c.type})
          </option>
        ))}
      </select>
    </label>
  );
}
