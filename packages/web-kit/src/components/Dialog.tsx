// A modal dialog on the native <dialog> element: the browser gives focus trapping, Escape to close and the
// backdrop; this adds a title (the accessible name), a body, a footer for actions, and keeps React's `open`
// prop and the element's state in step.
import { type ReactNode, useEffect, useId, useRef } from 'react';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose(): void;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
  /** The accessible name of the ✕ button (pages name what it closes: "Close viewer"). */
  closeLabel?: string;
}

export function Dialog({ open, title, onClose, children, footer, wide, closeLabel = 'Close' }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={`kit-dialog${wide ? ' kit-dialog--wide' : ''}`}
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <header className="kit-dialog-head">
            <h2 id={titleId}>{title}</h2>
            <button
              type="button"
              className="kit-btn kit-btn--ghost kit-btn--sm"
              aria-label={closeLabel}
              onClick={onClose}
            >
              ✕
            </button>
          </header>
          <div className="kit-dialog-body">{children}</div>
          {footer && <footer className="kit-dialog-foot">{footer}</footer>}
        </>
      )}
    </dialog>
  );
}
