// One row editor for the table designer's lists (columns, indexes, foreign keys): a table with a header,
// one row per item with its fields (text, checkbox or choice), a remove button per row and an add button.
// Each list declares its fields; labels follow one pattern (`Column 2 type`, `Remove index 1`, `Add foreign
// key`), which the browser test and screen readers rely on.
import { Button } from '@app/web-kit';
import type { ReactNode } from 'react';

/** One field of a row: how it is shown, and the patch a new value makes (default: the field itself). */
export interface RowField<R> {
  key: keyof R & string;
  /** The last word(s) of the field's label (`Column 1 name`). */
  label: string;
  /** The column header (default: the label, capitalised). */
  header?: string;
  kind?: 'text' | 'checkbox' | 'select';
  placeholder?: string;
  /** A datalist the text field suggests from. */
  list?: string;
  options?: ReadonlyArray<{ value: string; label: string }>;
  disabled?: boolean;
  title?: string;
  /** The patch a new value makes (the primary-key box also clears nullable). */
  patch?: (value: string | boolean, row: R) => Partial<R>;
}

export function DesignRows<R extends { id: string }>(props: {
  /** What one row is (`Column`, `Index`, `Foreign key`): the labels are built from it. */
  what: string;
  /** The table's accessible name. */
  caption: string;
  rows: R[];
  fields: ReadonlyArray<RowField<R>>;
  onChange: (rows: R[]) => void;
  newRow: () => R;
  /** Shown after the rows (a datalist, a hint). */
  children?: ReactNode;
}) {
  const { what, rows, onChange } = props;
  const noun = what.toLowerCase();
  const set = (id: string, patch: Partial<R>) =>
    onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  const input = (r: R, i: number, f: RowField<R>) => {
    const label = `${what} ${i + 1} ${f.label}`;
    const change = (value: string | boolean) =>
      set(r.id, f.patch ? f.patch(value, r) : ({ [f.key]: value } as Partial<R>));
    if (f.kind === 'checkbox')
      return (
        <input
          type="checkbox"
          aria-label={label}
          checked={r[f.key] === true}
          disabled={f.disabled}
          title={f.title}
          onChange={(e) => change(e.target.checked)}
        />
      );
    if (f.kind === 'select')
      return (
        <select aria-label={label} value={String(r[f.key] ?? '')} onChange={(e) => change(e.target.value)}>
          {(f.options ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    return (
      <input
        aria-label={label}
        list={f.list}
        placeholder={f.placeholder}
        value={String(r[f.key] ?? '')}
        onChange={(e) => change(e.target.value)}
      />
    );
  };
  return (
    <>
      {rows.length > 0 && (
        <table className="grid compact" aria-label={props.caption}>
          <thead>
            <tr>
              {props.fields.map((f) => (
                <th key={f.key}>{f.header ?? f.label[0].toUpperCase() + f.label.slice(1)}</th>
              ))}
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={r.id}>
                {props.fields.map((f) => (
                  <td key={f.key}>{input(r, i, f)}</td>
                ))}
                <td>
                  <button
                    type="button"
                    className="icon-btn"
                    aria-label={`Remove ${noun} ${i + 1}`}
                    onClick={() => onChange(rows.filter((x) => x.id !== r.id))}
                  >
                    ✕
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {props.children}
      <Button size="sm" onClick={() => onChange([...rows, props.newRow()])}>
        Add {noun}
      </Button>
    </>
  );
}
