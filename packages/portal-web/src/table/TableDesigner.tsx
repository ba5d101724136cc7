// The table designer (`POST /api/db/tables/ddl`): a form for a new table, or for an existing one read from
// `/api/db/objects/describe` — columns (name, a type from the engine's list, nullability, default, primary
// key), indexes and foreign keys. "Show DDL" asks the server for the statements it will run (`preview`);
// "Run" runs them governed like typed SQL: a held request waits here and runs once approved, as the table
// browser's edits do. After a run the object tree and the table's description are read again.
import { Button, LoadingState } from '@app/web-kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ApprovalNotice } from '../governance/ApprovalNotice';
import { ApiError, api, apiPost, errorText } from '../lib/api';
import type { Approval, DbObject, EngineMeta, ObjectDetail } from '../lib/types';
import {
  alterChanges,
  type ColumnRow,
  createBody,
  type DesignState,
  designFromDetail,
  emptyColumn,
  newDesign,
  newId,
} from './tableDesign';

const ACTIONS = ['', 'CASCADE', 'SET NULL', 'RESTRICT', 'NO ACTION'];

export function TableDesigner(props: {
  engine: EngineMeta;
  connectionKey: string;
  descriptor: Record<string, unknown>;
  /** The container the table lives in (schema or database). */
  container: string[];
  /** The table to alter; absent for a new table. */
  object?: DbObject;
  approvalsRequired?: number;
  onDone: (path: string[]) => void;
  onClose: () => void;
}) {
  const types = props.engine.columnTypes ?? [];
  const expressions = props.engine.defaultExpressions ?? [];
  const qc = useQueryClient();
  const detail = useQuery({
    queryKey: ['describe', props.connectionKey, props.object?.path],
    queryFn: () =>
      api<ObjectDetail>('/api/db/objects/describe', {
        body: { connection: props.descriptor, path: props.object?.path },
      }),
    enabled: props.object !== undefined,
    staleTime: 0,
  });
  const initial = useMemo<DesignState | undefined>(
    () =>
      props.object
        ? detail.data && designFromDetail(props.object.name, detail.data)
        : newDesign(types[0] ?? ''),
    [props.object, detail.data, types],
  );
  const [edited, setEdited] = useState<DesignState | undefined>();
  const s = edited ?? initial;
  const [ddl, setDdl] = useState<string[] | null>(null);
  const [held, setHeld] = useState<{ approval: Approval; message: string; guardrail?: string } | null>(null);
  const [outcome, setOutcome] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  if (!s || !initial)
    return (
      <section className="designer card" aria-label="Table designer">
        {detail.isError ? <p className="error-text">{errorText(detail.error)}</p> : <LoadingState />}
      </section>
    );

  const change = (next: Partial<DesignState>) => {
    setEdited({ ...s, ...next });
    setDdl(null);
    setOutcome(null);
  };
  const setColumn = (id: string, patch: Partial<ColumnRow>) =>
    change({ columns: s.columns.map((c) => (c.id === id ? { ...c, ...patch } : c)) });
  const path = [...props.container, (props.object?.name ?? s.name).trim()];
  const body = () =>
    props.object
      ? { alter: alterChanges(initial, s, props.container, expressions) }
      : { create: createBody(s, props.container, expressions) };
  const send = (preview: boolean) =>
    apiPost('/api/db/tables/ddl', { connection: props.descriptor, path, ...body(), preview });

  const showDdl = async () => {
    setOutcome(null);
    if (props.object && body().alter?.length === 0) {
      setOutcome({ kind: 'error', text: 'Nothing changed yet.' });
      return;
    }
    setBusy(true);
    try {
      setDdl((await send(true)).statements);
    } catch (err) {
      setOutcome({ kind: 'error', text: errorText(err) });
    } finally {
      setBusy(false);
    }
  };
  const run = async () => {
    setBusy(true);
    try {
      const r = await send(false);
      setHeld(null);
      setDdl(null);
      setOutcome({ kind: 'ok', text: `Ran ${r.statements.length} statement(s).` });
      // The tree, descriptions and open table pages of this connection are read again.
      await Promise.all(
        ['objects', 'describe', 'table-rows'].map((k) =>
          qc.invalidateQueries({ queryKey: [k, props.connectionKey] }),
        ),
      );
      const renamed = props.object && s.name.trim() !== props.object.name;
      props.onDone([...props.container, renamed || !props.object ? s.name.trim() : props.object.name]);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'APPROVAL_REQUIRED') {
        const b = err.body as { approval?: Approval; guardrail?: string } | undefined;
        if (b?.approval) setHeld({ approval: b.approval, message: err.message, guardrail: b.guardrail });
      } else setOutcome({ kind: 'error', text: errorText(err) });
    } finally {
      setBusy(false);
    }
  };

  const title = props.object
    ? `Design ${props.object.path.join('.')}`
    : `New table in ${props.container.join('.') || 'the database'}`;
  const keyFixed = initial.originalKey.length > 0;
  return (
    <section className="designer card" aria-label="Table designer">
      <div className="section-head">
        <h2>{title}</h2>
        <span className="spacer" />
        <button type="button" className="icon-btn" aria-label="Close designer" onClick={props.onClose}>
          ✕
        </button>
      </div>
      <label className="designer-name">
        Table name
        <input aria-label="Table name" value={s.name} onChange={(e) => change({ name: e.target.value })} />
      </label>
      <datalist id="designer-types">
        {types.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
      <h3>Columns</h3>
      <table className="grid compact" aria-label="Designed columns">
        <thead>
          <tr>
            <th>Name</th>
            <th>Type</th>
            <th>Null</th>
            <th>Default</th>
            <th>Key</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {s.columns.map((c, i) => (
            <tr key={c.id}>
              <td>
                <input
                  aria-label={`Column ${i + 1} name`}
                  value={c.name}
                  onChange={(e) => setColumn(c.id, { name: e.target.value })}
                />
              </td>
              <td>
                <input
                  aria-label={`Column ${i + 1} type`}
                  list="designer-types"
                  value={c.type}
                  placeholder="type, e.g. varchar(50)"
                  onChange={(e) => setColumn(c.id, { type: e.target.value })}
                />
              </td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Column ${i + 1} nullable`}
                  checked={c.nullable}
                  onChange={(e) => setColumn(c.id, { nullable: e.target.checked })}
                />
              </td>
              <td>
                <input
                  aria-label={`Column ${i + 1} default`}
                  value={c.defaultText}
                  placeholder={expressions[0] ?? ''}
                  onChange={(e) => setColumn(c.id, { defaultText: e.target.value })}
                />
              </td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Column ${i + 1} primary key`}
                  checked={c.primary}
                  disabled={keyFixed}
                  title={keyFixed ? 'The existing primary key is kept' : undefined}
                  onChange={(e) =>
                    setColumn(c.id, {
                      primary: e.target.checked,
                      nullable: e.target.checked ? false : c.nullable,
                    })
                  }
                />
              </td>
              <td>
                <button
                  type="button"
                  className="icon-btn"
                  aria-label={`Remove column ${i + 1}`}
                  onClick={() => change({ columns: s.columns.filter((x) => x.id !== c.id) })}
                >
                  ✕
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Button size="sm" onClick={() => change({ columns: [...s.columns, emptyColumn()] })}>
        Add column
      </Button>
      <h3>Indexes</h3>
      {s.indexes.map((ix, i) => (
        <div className="designer-line" key={ix.id}>
          <input
            aria-label={`Index ${i + 1} name`}
            placeholder="name"
            value={ix.name}
            onChange={(e) =>
              change({ indexes: s.indexes.map((x) => (x.id === ix.id ? { ...x, name: e.target.value } : x)) })
            }
          />
          <input
            aria-label={`Index ${i + 1} columns`}
            placeholder="columns, comma separated"
            value={ix.columns}
            onChange={(e) =>
              change({
                indexes: s.indexes.map((x) => (x.id === ix.id ? { ...x, columns: e.target.value } : x)),
              })
            }
          />
          <label>
            <input
              type="checkbox"
              aria-label={`Index ${i + 1} unique`}
              checked={ix.unique}
              onChange={(e) =>
                change({
                  indexes: s.indexes.map((x) => (x.id === ix.id ? { ...x, unique: e.target.checked } : x)),
                })
              }
            />
            unique
          </label>
          <button
            type="button"
            className="icon-btn"
            aria-label={`Remove index ${i + 1}`}
            onClick={() => change({ indexes: s.indexes.filter((x) => x.id !== ix.id) })}
          >
            ✕
          </button>
        </div>
      ))}
      <Button
        size="sm"
        onClick={() =>
          change({ indexes: [...s.indexes, { id: newId(), name: '', columns: '', unique: false }] })
        }
      >
        Add index
      </Button>
      <h3>Foreign keys</h3>
      {s.foreignKeys.map((f, i) => {
        const set = (patch: Partial<typeof f>) =>
          change({ foreignKeys: s.foreignKeys.map((x) => (x.id === f.id ? { ...x, ...patch } : x)) });
        return (
          <div className="designer-line" key={f.id}>
            <input
              aria-label={`Foreign key ${i + 1} name`}
              placeholder="name (optional)"
              value={f.name}
              onChange={(e) => set({ name: e.target.value })}
            />
            <input
              aria-label={`Foreign key ${i + 1} column`}
              placeholder="column"
              value={f.column}
              onChange={(e) => set({ column: e.target.value })}
            />
            <span aria-hidden="true">→</span>
            <input
              aria-label={`Foreign key ${i + 1} referenced table`}
              placeholder="table"
              value={f.refTable}
              onChange={(e) => set({ refTable: e.target.value })}
            />
            <input
              aria-label={`Foreign key ${i + 1} referenced column`}
              placeholder="column"
              value={f.refColumn}
              onChange={(e) => set({ refColumn: e.target.value })}
            />
            <select
              aria-label={`Foreign key ${i + 1} on delete`}
              value={f.onDelete}
              onChange={(e) => set({ onDelete: e.target.value })}
            >
              {ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {a ? `ON DELETE ${a}` : 'on delete: default'}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="icon-btn"
              aria-label={`Remove foreign key ${i + 1}`}
              onClick={() => change({ foreignKeys: s.foreignKeys.filter((x) => x.id !== f.id) })}
            >
              ✕
            </button>
          </div>
        );
      })}
      <Button
        size="sm"
        onClick={() =>
          change({
            foreignKeys: [
              ...s.foreignKeys,
              { id: newId(), name: '', column: '', refTable: '', refColumn: '', onDelete: '' },
            ],
          })
        }
      >
        Add foreign key
      </Button>
      {outcome && (
        <div
          className={`alert ${outcome.kind === 'ok' ? 'alert-success' : 'alert-error'}`}
          role={outcome.kind === 'ok' ? 'status' : 'alert'}
        >
          {outcome.text}
        </div>
      )}
      {held && (
        <ApprovalNotice
          approval={held.approval}
          message={held.message}
          guardrail={held.guardrail}
          approvalsRequired={props.approvalsRequired}
          onApproved={() => void run()}
        />
      )}
      {ddl && (
        <div className="review" role="dialog" aria-label="DDL to run">
          <h3>The DDL the server will run</h3>
          <pre className="definition" data-testid="designer-ddl">
            {ddl.map((t) => `${t};`).join('\n')}
          </pre>
        </div>
      )}
      <div className="toolbar">
        <Button disabled={busy} onClick={() => void showDdl()}>
          Show DDL
        </Button>
        <Button
          variant="primary"
          disabled={busy || !ddl}
          title={ddl ? undefined : 'Show the DDL first'}
          onClick={() => void run()}
        >
          Run DDL
        </Button>
      </div>
    </section>
  );
}
