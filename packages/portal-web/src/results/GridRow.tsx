// One row of the results grid, memoized: with a fixed row height a row's place never changes while the grid
// scrolls, so a row already on screen is not drawn again on the next frame; only the rows scrolling in are.
// It reads its cells straight from the row's values (no per-cell objects) and hands clicks to the grid. Cells
// carry no inline style (the table's column template places them), so the browser shares one computed style
// among cells of a kind instead of computing each anew as rows scroll in.
import { memo } from 'react';
import { cellView } from './cells';

/** What a row needs of each shown column; one array per layout, shared by every row. */
export interface GridColumn {
  id: string;
  width: number;
  masked: boolean;
}

export interface GridRowProps {
  values: Record<string, unknown>;
  /** The row's place in the loaded result (selection, the number shown). */
  index: number;
  /** The row's place in the sorted, filtered view (for Shift ranges and aria-rowindex). */
  position: number;
  /** Pixels from the top of the body. */
  start: number;
  selected: boolean;
  columns: GridColumn[];
  onPick(index: number, position: number, e: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }): void;
  onView(field: string, value: unknown): void;
}

export const GridRow = memo(function GridRow(props: GridRowProps) {
  const { values, index, position } = props;
  return (
    <tr
      aria-rowindex={position + 2}
      className={props.selected ? 'selected' : undefined}
      style={{ transform: `translateY(${props.start}px)` }}
      onClick={(e) => props.onPick(index, position, e)}
    >
      <td className="rownum">{index + 1}</td>
      {props.columns.map((c) => {
        const value = values[c.id];
        const view = cellView(value, c.masked);
        return (
          <td
            key={c.id}
            className={view.cls}
            title={
              view.cls === 'empty' ? 'empty string' : view.cls === 'masked' ? 'masked by policy' : undefined
            }
            onDoubleClick={() => props.onView(c.id, value)}
          >
            {view.text}
          </td>
        );
      })}
    </tr>
  );
});
