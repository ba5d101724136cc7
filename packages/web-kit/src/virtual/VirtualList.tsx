// A virtualized list of plain rows on the kit's useVirtualRows: only the rows in view (plus `overscan`) are in
// the DOM, so a list of hundreds of thousands of rows costs what a screenful costs. Rows have a fixed height by
// default (the fast path: no measuring); pass `measure` for rows whose height varies. The parent gets the
// virtualizer through `virtualizerRef` to scroll to a row (search hits, line links, follow the tail).
import { type ReactNode, type RefObject, type UIEvent, useImperativeHandle, useRef } from 'react';
import { type RowsVirtualizer, useVirtualRows } from './useVirtualRows';

export type ListVirtualizer = RowsVirtualizer<HTMLDivElement>;

export interface VirtualListProps {
  count: number;
  /** The row height in pixels (or the estimate when `measure` is set). */
  rowHeight: number;
  renderRow(index: number): ReactNode;
  /** A stable key per row (defaults to the index). */
  rowKey?(index: number): string | number;
  overscan?: number;
  measure?: boolean;
  className?: string;
  /** The accessible name of the list. */
  label: string;
  role?: 'list' | 'log' | 'grid';
  onScroll?(event: UIEvent<HTMLDivElement>, virtualizer: ListVirtualizer): void;
  virtualizerRef?: RefObject<ListVirtualizer | null>;
}

export function VirtualList({
  count,
  rowHeight,
  renderRow,
  rowKey,
  overscan = 20,
  measure = false,
  className,
  label,
  role = 'list',
  onScroll,
  virtualizerRef,
}: VirtualListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { virtualizer, rows, totalSize } = useVirtualRows({ count, rowHeight, scrollRef, overscan, rowKey });
  useImperativeHandle(virtualizerRef, () => virtualizer, [virtualizer]);

  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the role is list, log or grid, which all take a label
    <div
      ref={scrollRef}
      className={`kit-vlist${className ? ` ${className}` : ''}`}
      role={role}
      aria-label={label}
      tabIndex={0}
      onScroll={onScroll ? (e) => onScroll(e, virtualizer) : undefined}
    >
      <div className="kit-vlist-space" style={{ height: totalSize }}>
        <div className="kit-vlist-window" style={{ transform: `translateY(${rows[0]?.start ?? 0}px)` }}>
          {rows.map((item) => (
            <div
              key={item.key}
              data-index={item.index}
              ref={measure ? virtualizer.measureElement : undefined}
              className="kit-vlist-row"
              style={measure ? undefined : { height: rowHeight }}
            >
              {renderRow(item.index)}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
