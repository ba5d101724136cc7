// Small shared pieces: status badges, error and loading notes, page headers, a pager, a modal dialog,
// relative timestamps, the one-row forms of the settings pages and the two-step button of destructive actions.
import { type FormEvent, type ReactNode, useEffect, useRef } from 'react';
import { ago, dateTime } from '../lib/format';

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status.replace(/[^a-z_]/g, '')}`}>{status.replace(/_/g, ' ')}</span>;
}

export function ErrorNote({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="note note-error" role="alert">
      {title && <strong>{title}: </strong>}
      {message}
    </div>
  );
}

export function Notice({ children, kind = 'info' }: { children: ReactNode; kind?: 'info' | 'success' }) {
  return (
    <div className={`note note-${kind}`} role="status">
      {children}
    </div>
  );
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return <p className="muted loading">{what}…</p>;
}

export function PageHeader({
  title,
  sub,
  actions,
}: {
  title: ReactNode;
  sub?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {sub && <p className="muted">{sub}</p>}
      </div>
      {actions && <div className="actions">{actions}</div>}
    </header>
  );
}

export function Time({ at }: { at: string | null | undefined }) {
  if (!at) return <span className="muted">—</span>;
  return (
    <time dateTime={at} title={dateTime(at)}>
      {ago(at)}
    </time>
  );
}

export function Pager(props: {
  total: number;
  limit: number;
  offset: number;
  onChange: (offset: number) => void;
}) {
  const { total, limit, offset, onChange } = props;
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(offset + limit, total);
  return (
    <nav className="pager" aria-label="Pages">
      <span className="muted">
        {first}–{last} of {total}
      </span>
      <button type="button" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))}>
        Previous
      </button>
      <button type="button" disabled={offset + limit >= total} onClick={() => onChange(offset + limit)}>
        Next
      </button>
    </nav>
  );
}

/** A native modal dialog (focus trapping and Escape come with it). */
export function Modal(props: { title: string; open: boolean; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} className="modal" aria-label={props.title} onClose={props.onClose}>
      {props.open && (
        <>
          <header className="modal-header">
            <h2>{props.title}</h2>
            <button type="button" className="ghost" aria-label="Close" onClick={props.onClose}>
              ×
            </button>
          </header>
          {props.children}
        </>
      )}
    </dialog>
  );
}

/**
 * A destructive action asked twice: the button (`label`, named `name` for assistive technology) turns into
 * "Confirm <what>" and "Keep". Which row is asking is the caller's state, so one row asks at a time.
 */
export function ConfirmButton(props: {
  label: string;
  name: string;
  confirmLabel: string;
  asking: boolean;
  busy: boolean;
  onAsk(): void;
  onKeep(): void;
  onConfirm(): void;
}) {
  if (!props.asking)
    return (
      <button type="button" aria-label={props.name} onClick={props.onAsk}>
        {props.label}
      </button>
    );
  return (
    <span className="row end">
      <button type="button" className="danger" disabled={props.busy} onClick={props.onConfirm}>
        {props.confirmLabel}
      </button>
      <button type="button" onClick={props.onKeep}>
        Keep
      </button>
    </span>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty muted">{children}</p>;
}

/** A one-row form (fields side by side, wrapping) that hands its submit to `onSubmit` without a reload. */
export function InlineForm(props: { onSubmit(): void; label?: string; children: ReactNode }) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit();
  };
  return (
    <form className="row wrap" onSubmit={submit} aria-label={props.label}>
      {props.children}
    </form>
  );
}

/**
 * One field of a settings form: its words, then the control (input, select) they name; `grow` lets a long
 * value (a URL, a key) take the row's free width. A label wrapping its control needs no ids to be found.
 */
export function InlineField(props: { label: ReactNode; grow?: boolean; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is among the children, which the label wraps
    <label className={props.grow ? 'inline grow' : 'inline'}>
      {props.label}
      {props.children}
    </label>
  );
}

/** One term and its value in a `<dl className="facts">` list. */
export function Fact({ k, v }: { k: string; v: string }) {
  return (
    <div>
      <dt>{k}</dt>
      <dd>{v}</dd>
    </div>
  );
}
