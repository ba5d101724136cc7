// The kit's one virtualization primitive (on @tanstack/react-virtual): which rows of a long list are in view
// (plus `overscan`), where each starts, and the height of the whole. VirtualList draws plain rows with it; a
// page whose rows must be other elements (a <table> body, a tree's <li>s) calls it directly and places the
// rows itself, so every virtual list of both UIs scrolls the same way and no page imports the library.
// Rows have a fixed height by default (the fast path: no measuring, a row's start never changes, so a
// memoized row is not redrawn while scrolling); rows whose height varies hand each drawn row's element to
// `virtualizer.measureElement` (as VirtualList's `measure` does).
import { useVirtualizer, type VirtualItem, type Virtualizer } from '@tanstack/react-virtual';
import type { RefObject } from 'react';

export type RowsVirtualizer<E extends Element = HTMLDivElement> = Virtualizer<E, Element>;
export type VirtualRow = VirtualItem;

export interface VirtualRowsOptions<E extends Element> {
  count: number;
  /** The row height in pixels (or the estimate when `measure` is set). */
  rowHeight: number;
  /** The element that scrolls. */
  scrollRef: RefObject<E | null>;
  overscan?: number;
  /** A stable key per row (defaults to the index). */
  rowKey?(index: number): string | number;
}

export interface VirtualRows<E extends Element> {
  virtualizer: RowsVirtualizer<E>;
  /** The rows to draw, in order, each with its `index`, `key` and `start` (px from the top of the whole). */
  rows: VirtualRow[];
  /** The height of all rows together (the scrolled content's height). */
  totalSize: number;
}

export function useVirtualRows<E extends Element>({
  count,
  rowHeight,
  scrollRef,
  overscan = 20,
  rowKey,
}: VirtualRowsOptions<E>): VirtualRows<E> {
  const virtualizer = useVirtualizer<E, Element>({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan,
    getItemKey: rowKey,
  });
  return { virtualizer, rows: virtualizer.getVirtualItems(), totalSize: virtualizer.getTotalSize() };
}
