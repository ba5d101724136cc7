// The workspace: connections and the object tree on the left; on the right the connection's policy badges,
// the open object's description or a schema's ER diagram, and the query area (tabs, editor, results). The
// chosen connection is kept for the browser tab's lifetime (sessionStorage); editor tabs per connection are
// kept across reloads by the query panel.
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { GovernanceBadges } from '../governance/GovernanceBadges';
import {
  requestDescriptor,
  useManagedConnections,
  useOwnConnections,
  useStorageConfig,
} from '../lib/connections';
import { useEngines } from '../lib/engines';
import { Link } from '../lib/router';
import type { Connection, DbObject, EngineMeta, SessionUser } from '../lib/types';
import { TableBrowser } from '../table/TableBrowser';
import { TableDesigner } from '../table/TableDesigner';
import { ConnectionsPanel, EnvBadge } from '../workspace/ConnectionsPanel';
import { qualifiedName } from '../workspace/ddl';
import { ObjectDetailPanel } from '../workspace/ObjectDetailPanel';
import { ObjectTree } from '../workspace/ObjectTree';
import { QueryPanel } from '../workspace/QueryPanel';

const ErDiagram = lazy(() => import('../er/ErDiagram'));

const SELECTED_KEY = 'portal.workspace.selected';

/** A generated SELECT of an object (or the engine's request form for the non-SQL engines). */
function selectOf(c: Connection, o: DbObject, engine: EngineMeta | undefined): string {
  if (c.type === 'mongodb')
    return JSON.stringify({ collection: o.name, operation: 'find', filter: {} }, null, 2);
  if (c.type === 'redis' || c.type === 'leveldb')
    return c.type === 'redis' ? `GET ${o.name}` : `get ${o.name}`;
  // SQL++: `SELECT *` nests the document and omits its key, so the key is projected as __id.
  if (c.type === 'couchbase') {
    const tick = (s: string) => `\`${s.split('`').join('``')}\``;
    const ks = [c.database ?? '', ...o.path].map(tick).join('.');
    return `SELECT META(d).id AS __id, d.* FROM ${ks} AS d`;
  }
  // The engine list arrives before a user can pick an object; until then the name is left bare.
  return `SELECT * FROM ${engine ? qualifiedName(engine, o) : o.name}`;
}

export function WorkspacePage({ user, theme }: { user: SessionUser; theme: 'light' | 'dark' }) {
  const storage = useStorageConfig();
  const managed = useManagedConnections();
  const own = useOwnConnections(user.username, storage.data?.serverMode);
  const [selectedId, setSelectedId] = useState<string | undefined>(
    () => window.sessionStorage.getItem(SELECTED_KEY) ?? undefined,
  );
  const [openObject, setOpenObject] = useState<DbObject | null>(null);
  const [diagram, setDiagram] = useState<{ schema: string; objects: DbObject[] } | null>(null);
  const [request, setRequest] = useState<{ sql: string; nonce: number } | undefined>();
  const [browsing, setBrowsing] = useState<{ object: DbObject; filters?: Record<string, string> } | null>(
    null,
  );
  const engines = useEngines();
  const [designing, setDesigning] = useState<{ container: string[]; object?: DbObject } | null>(null);

  const all = useMemo(() => [...(managed.data ?? []), ...(own.data ?? [])], [managed.data, own.data]);
  const connection = all.find((c) => c.id === selectedId);
  // The table browser is offered where the engine edits rows in the grid (the SQL engines it is built for).
  const browsable =
    engines.data?.find((e) => e.engine === connection?.type)?.capabilities?.supportsInlineRowEdit === true;
  // The table designer is offered where the engine creates tables and the server lists its column types.
  const engineMeta = engines.data?.find((e) => e.engine === connection?.type);
  const designable =
    engineMeta?.capabilities?.supportsCreateTable === true && (engineMeta.columnTypes?.length ?? 0) > 0;

  useEffect(() => {
    if (selectedId) window.sessionStorage.setItem(SELECTED_KEY, selectedId);
    else window.sessionStorage.removeItem(SELECTED_KEY);
  }, [selectedId]);

  const select = (c: Connection) => {
    if (c.id !== selectedId) {
      setOpenObject(null);
      setDiagram(null);
      setRequest(undefined);
      setBrowsing(null);
      setDesigning(null);
    }
    setSelectedId(c.id);
  };
  const descriptor = connection ? requestDescriptor(connection, user.username) : undefined;
  // Cache keys change when an own connection is edited, so its tree is read again.
  const connectionKey = connection
    ? JSON.stringify([connection.id, connection.managed ? '' : connection])
    : '';

  return (
    <div className="workspace">
      <aside className="sidebar" aria-label="Workspace navigation">
        <ConnectionsPanel
          username={user.username}
          selectedId={selectedId}
          onSelect={select}
          onRemoved={(id) => {
            if (id === selectedId) setSelectedId(undefined);
          }}
        />
        {connection && descriptor && (
          <ObjectTree
            key={connectionKey}
            connectionKey={connectionKey}
            descriptor={descriptor}
            selectedPath={openObject?.path}
            onOpen={setOpenObject}
            onDiagram={(schema, objects) => setDiagram({ schema, objects })}
            onNewTable={designable ? (container) => setDesigning({ container }) : undefined}
          />
        )}
      </aside>
      <div className="main-area">
        {!connection ? (
          <div className="empty-state">
            <h2>Pick a connection</h2>
            <p className="muted">
              Choose a managed datasource or one of your own connections on the left, or add a new one.
            </p>
          </div>
        ) : (
          <>
            <div className="conn-title">
              <h1>{connection.name}</h1>
              <span className="badge engine">{connection.type}</span>
              <EnvBadge env={connection.environment} />
              {connection.managed && <span className="badge managed">managed</span>}
              <GovernanceBadges connection={connection} />
              <Link
                href={`/monitoring?datasource=${encodeURIComponent(connection.id)}`}
                className="kit-btn kit-btn--ghost kit-btn--sm"
              >
                Monitor
              </Link>
            </div>
            {diagram && descriptor && (
              <Suspense fallback={<p className="muted small">Loading the diagram…</p>}>
                <ErDiagram
                  connectionKey={connectionKey}
                  descriptor={descriptor}
                  schema={diagram.schema}
                  objects={diagram.objects}
                  dark={theme === 'dark'}
                  onDescribe={(o) => setOpenObject(o)}
                  onClose={() => setDiagram(null)}
                />
              </Suspense>
            )}
            {openObject && descriptor && (
              <ObjectDetailPanel
                engine={engineMeta}
                connectionKey={connectionKey}
                descriptor={descriptor}
                object={openObject}
                onClose={() => setOpenObject(null)}
                onQuery={(o) => setRequest({ sql: selectOf(connection, o, engineMeta), nonce: Date.now() })}
                onBrowse={
                  browsable
                    ? (o) => {
                        setBrowsing({ object: o });
                        setOpenObject(null);
                        // The browser is the grid the person now works in; with the diagram too, the query
                        // results would not fit at 900 px (issue 30).
                        setDiagram(null);
                      }
                    : undefined
                }
                onDesign={
                  designable
                    ? (o) => {
                        setDesigning({ container: o.path.slice(0, -1), object: o });
                        setOpenObject(null);
                      }
                    : undefined
                }
              />
            )}
            {designing && descriptor && engineMeta && (
              <TableDesigner
                key={`${connectionKey}\u0000${designing.container.join('\u0000')}\u0000${designing.object?.name ?? ''}`}
                engine={engineMeta}
                connectionKey={connectionKey}
                descriptor={descriptor}
                container={designing.container}
                object={designing.object}
                approvalsRequired={connection.approvalsRequired}
                onDone={(path) => {
                  setDesigning(null);
                  setOpenObject({ path, name: path[path.length - 1] ?? '', kind: 'table' });
                }}
                onClose={() => setDesigning(null)}
              />
            )}
            {browsing && descriptor && (
              <TableBrowser
                key={`${connectionKey}\u0000${browsing.object.path.join('\u0000')}\u0000${JSON.stringify(browsing.filters ?? {})}`}
                connectionKey={connectionKey}
                descriptor={descriptor}
                object={browsing.object}
                initialFilters={browsing.filters}
                onFollow={(path, column, value) =>
                  setBrowsing({
                    object: { path, name: path[path.length - 1] ?? '', kind: 'table' },
                    filters: { [column]: `=${String(value)}` },
                  })
                }
                approvalsRequired={connection.approvalsRequired}
                onClose={() => setBrowsing(null)}
              />
            )}
            <QueryPanel
              key={connectionKey}
              connection={connection}
              connectionKey={connectionKey}
              descriptor={descriptor!}
              username={user.username}
              serverMode={storage.data?.serverMode ?? false}
              theme={theme}
              request={request}
            />
          </>
        )}
      </div>
    </div>
  );
}
