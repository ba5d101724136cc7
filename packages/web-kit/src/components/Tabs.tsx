// Tabs with the WAI-ARIA tab pattern: a tablist whose arrow keys move between tabs (Home/End to the ends),
// one tab in the Tab order, and the selected panel labelled by its tab. The parent owns the selection so it
// can live in the address (`?tab=`).
import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';

export interface TabItem {
  id: string;
  label: ReactNode;
  /** A count or badge after the label. */
  extra?: ReactNode;
}

export function Tabs({
  items,
  value,
  onChange,
  label,
  children,
}: {
  items: TabItem[];
  value: string;
  onChange(id: string): void;
  label: string;
  children?: ReactNode;
}) {
  const base = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const index = Math.max(
    0,
    items.findIndex((i) => i.id === value),
  );

  const onKeyDown = (e: KeyboardEvent) => {
    let next = -1;
    if (e.key === 'ArrowRight') next = (index + 1) % items.length;
    else if (e.key === 'ArrowLeft') next = (index - 1 + items.length) % items.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = items.length - 1;
    if (next < 0) return;
    e.preventDefault();
    onChange(items[next].id);
    refs.current[next]?.focus();
  };

  return (
    <div className="kit-tabs">
      <div role="tablist" aria-label={label} className="kit-tablist" onKeyDown={onKeyDown}>
        {items.map((item, i) => (
          <button
            key={item.id}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${item.id}`}
            aria-selected={i === index}
            aria-controls={`${base}-panel`}
            tabIndex={i === index ? 0 : -1}
            className="kit-tab"
            onClick={() => onChange(item.id)}
          >
            {item.label}
            {item.extra !== undefined && <span className="kit-tab-extra">{item.extra}</span>}
          </button>
        ))}
      </div>
      {children !== undefined && (
        <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${items[index]?.id}`}>
          {children}
        </div>
      )}
    </div>
  );
}
