// A cell of the table browser: its text as the grid shows values (NULL, masked, JSON), and the inline editor a
// double click opens.
import { Button } from '@app/web-kit';
import { useState } from 'react';
import { cellView } from '../results/cells';
import type { Cell } from './tableEdits';

export function CellText(props: { value: unknown; masked?: boolean }) {
  const v = cellView(props.value, props.masked);
  return <span className={`cell-${v.cls}`}>{v.text}</span>;
}

/** An inline editor: Enter keeps the text, Escape cancels, "NULL" sets NULL. */
export function CellEditor(props: { initial: unknown; onCommit: (v: Cell) => void; onCancel: () => void }) {
  const [text, setText] = useState(
    props.initial === null || props.initial === undefined
      ? ''
      : typeof props.initial === 'object'
        ? JSON.stringify(props.initial)
        : String(props.initial),
  );
  return (
    <span className="cell-editor">
      <input
        // biome-ignore lint/a11y/noAutofocus: the editor opens where the person double-clicked
        autoFocus
        aria-label="Cell value"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') props.onCommit(text);
          if (e.key === 'Escape') props.onCancel();
        }}
      />
      <Button size="sm" onClick={() => props.onCommit(text)}>
        OK
      </Button>
      <Button size="sm" title="Set NULL" onClick={() => props.onCommit(null)}>
        NULL
      </Button>
    </span>
  );
}
