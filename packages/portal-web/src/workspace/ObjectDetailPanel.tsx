// The description of one object (`POST /api/db/objects/describe`): columns, indexes, foreign keys and its
// DDL (the engine's own source, or rebuilt from the catalog for a table), with a button that puts a SELECT
// of the object into the editor.
import { Button, Spinner } from '@app/web-kit';
import { useQuery } from '@tanstack/react-query';
import { apiPost, errorText } from '../lib/api';
import type { DbObject, EngineMeta } from '../lib/types';
import { ddlOf } from './ddl';

function show(v: unknown): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export function ObjectDetailPanel(props: {
  /** The engine's provider-meta entry (its quoting); undefined until the engine list has arrived. */
  engine: EngineMeta | undefined;
  connectionKey: string;
  descriptor: Record<string, unknown>;
  object: DbObject;
  onClose: () => void;
  onQuery: (o: DbObject) => void;
  /** Opens the object in the table browser (absent where the engine has none). */
  onBrowse?: (o: DbObject) => void;
  /** Opens a table in the table designer (absent where the engine has none). */
  onDesign?: (o: DbObject) => void;
}) {
  const { object } = props;
  const detail = useQuery({
    queryKey: ['describe', props.connectionKey, object.path],
    queryFn: () => apiPost('/api/db/objects/describe', { connection: props.descriptor, path: object.path }),
    staleTime: 60_000,
  });
  const d = detail.data;
  const ddl = d && props.engine ? ddlOf(props.engine, d) : undefined;
  return (
    <section className="detail card" aria-label={`Object ${object.name}`}>
      <div className="section-head">
        <h2>
          <span className="badge kind-badge">{object.kind}</span> {object.path.join('.')}
        </h2>
        <span className="spacer" />
        {props.onBrowse && /table|view/i.test(object.kind) && (
          <Button size="sm" variant="primary" onClick={() => props.onBrowse?.(object)}>
            Browse data
          </Button>
        )}
        {props.onDesign && /table/i.test(object.kind) && !/view/i.test(object.kind) && (
          <Button size="sm" onClick={() => props.onDesign?.(object)}>
            Design table
          </Button>
        )}
        <Button size="sm" onClick={() => props.onQuery(object)}>
          Query this
        </Button>
        <button type="button" className="icon-btn" aria-label="Close object" onClick={props.onClose}>
          ✕
        </button>
      </div>
      {detail.isPending && <Spinner size="sm" />}
      {detail.isError && (
        <p className="error-text" role="alert">
          {errorText(detail.error)}
        </p>
      )}
      {d && (
        <div className="detail-grid">
          <div>
            <h3>Columns</h3>
            <table className="grid compact" aria-label="Columns">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Type</th>
                  <th>Null</th>
                  <th>Key</th>
                  <th>Default</th>
                </tr>
              </thead>
              <tbody>
                {d.columns.map((c) => (
                  <tr key={c.name}>
                    <td className="mono">{c.name}</td>
                    <td className="mono muted">{c.type}</td>
                    <td>{c.nullable ? 'yes' : 'no'}</td>
                    <td>{c.isPrimary ? <span className="badge pk">PK</span> : ''}</td>
                    <td className="mono muted">{show(c.defaultValue)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div>
            <h3>Indexes</h3>
            {d.indexes.length === 0 ? (
              <p className="muted small">None.</p>
            ) : (
              <table className="grid compact" aria-label="Indexes">
                <thead>
                  <tr>
                    <th>Name</th>
                    <th>Columns</th>
                    <th>Unique</th>
                  </tr>
                </thead>
                <tbody>
                  {d.indexes.map((i) => (
                    <tr key={i.name}>
                      <td className="mono">{i.name}</td>
                      <td className="mono">{i.columns.join(', ')}</td>
                      <td>{i.unique ? 'yes' : 'no'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <h3>Foreign keys</h3>
            {d.foreignKeys.length === 0 ? (
              <p className="muted small">None.</p>
            ) : (
              <table className="grid compact" aria-label="Foreign keys">
                <thead>
                  <tr>
                    <th>Column</th>
                    <th>References</th>
                    <th>On delete</th>
                  </tr>
                </thead>
                <tbody>
                  {d.foreignKeys.map((f) => (
                    <tr key={`${f.constraintName ?? ''}\u0000${f.columnName}`}>
                      <td className="mono">{f.columnName}</td>
                      <td className="mono">
                        {f.referencedPath?.length ? f.referencedPath.join('.') : (f.referencedTable ?? '')}
                        {f.referencedColumn ? `(${f.referencedColumn})` : ''}
                      </td>
                      <td>{f.onDelete ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
        </div>
      )}
      {ddl && (
        <details className="ddl" open={!ddl.rebuilt}>
          <summary>{ddl.rebuilt ? 'DDL (rebuilt from the catalog)' : 'Definition'}</summary>
          <pre className="definition" data-testid="ddl">
            {ddl.text}
          </pre>
        </details>
      )}
    </section>
  );
}
