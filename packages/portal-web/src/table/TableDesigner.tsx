// The table designer (`POST /api/db/tables/ddl`): a form for a new table, or for an existing one read from
// `/api/db/objects/describe` — columns (name, a type from the engine's list, nullability, default, primary
// key), indexes and foreign keys. "Show DDL" asks the server for the statements it will run (`preview`);
// "Run" runs them governed like typed SQL: a held request waits here and runs once approved, as the table
// browser's edits do. After a run the object tree and the table's description are read again. The three
// lists share one row editor (DesignRows.tsx); on SQLite a change ALTER TABLE cannot make comes back as the
// server's table-rebuild script, shown like any other DDL.
import { Button, LoadingState } from '@app/web-kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ApprovalNotice } from '../governance/ApprovalNotice';
import { ApiError, apiPost, errorText } from '../lib/api';
import type { Approval, DbObject, EngineMeta } from '../lib/types';
import { DesignRows, type RowField } from './DesignRows';
import {
  alterChanges,
  type ColumnRow,
  createBody,
  type DesignState,
  designFromDetail,
  emptyColumn,
  type ForeignKeyRow,
  type IndexRow,
  newDesign,
  newId,
} from './tableDesign';

const ACTIONS = ['', 'CASCADE', 'SET NULL', 'RESTRICT', 'NO ACTION'].map((a) => ({
  value: a,
  label: a ? `ON DELETE ${a}` : 'on delete: default',
}));

/** A column's fields; the key box is fixed where the table has a key already, and a key column is NOT NULL. */
function columnFields(expressions: readonly string[], keyFixed: boolean): RowField<ColumnRow>[] {
  return [
    { key: 'name', label: 'name' },
    { key: 'type', label: 'type', list: 'designer-types', placeholder: 'type, e.g. varchar(50)' },
    { key: 'nullable', label: 'nullable', header: 'Null', kind: 'checkbox' },
    { key: 'defaultText', label: 'default', placeholder: expressions[0] ?? '' },
    {
      key: 'primary',
      label: 'primary key',
      header: 'Key',
      kind: 'checkbox',
      disabled: keyFixed,
      title: keyFixed ? 'The existing primary key is kept' : undefined,
      patch: (v, c) => ({ primary: v === true, nullable: v === true ? false : c.nullable }),
    },
  ];
}
const INDEX_FIELDS: RowField<IndexRow>[] = [
  { key: 'name', label: 'name', placeholder: 'name' },
  { key: 'columns', label: 'columns', placeholder: 'columns, comma separated' },
  { key: 'unique', label: 'unique', kind: 'checkbox' },
];
const FK_FIELDS: RowField<ForeignKeyRow>[] = [
  { key: 'name', label: 'name', placeholder: 'name (optional)' },
  { key: 'column', label: 'column', placeholder: 'column' },
  { key: 'refTable', label: 'referenced table', header: '→ Table', placeholder: 'table' },
  { key: 'refColumn', label: 'referenced column', header: 'Column', placeholder: 'column' },
  { key: 'onDelete', label: 'on delete', header: 'On delete', kind: 'select', options: ACTIONS },
];

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
      apiPost('/api/db/objects/describe', { connection: props.descriptor, path: props.object?.path }),
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
      <DesignRows
        what="Column"
        caption="Designed columns"
        rows={s.columns}
        fields={columnFields(expressions, keyFixed)}
        onChange={(columns) => change({ columns })}
        newRow={emptyColumn}
      />
      <h3>Indexes</h3>
      <DesignRows
        what="Index"
        caption="Designed indexes"
        rows={s.indexes}
        fields={INDEX_FIELDS}
        onChange={(indexes) => change({ indexes })}
        newRow={() => ({ id: newId(), name: '', columns: '', unique: false })}
      />
      <h3>Foreign keys</h3>
      <DesignRows
        what="Foreign key"
        caption="Designed foreign keys"
        rows={s.foreignKeys}
        fields={FK_FIELDS}
        onChange={(foreignKeys) => change({ foreignKeys })}
        newRow={() => ({ id: newId(), name: '', column: '', refTable: '', refColumn: '', onDelete: '' })}
      />
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
