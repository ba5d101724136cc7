// The tab strip above the editor: one tab per script, a new-tab button, close buttons.
import type { TabsState } from '../editor/tabs';

export function EditorTabs(props: {
  state: TabsState;
  onSelect: (id: string) => void;
  onAdd: () => void;
  onClose: (id: string) => void;
}) {
  return (
    <div className="editor-tabs" role="tablist" aria-label="Editor tabs">
      {props.state.tabs.map((t) => (
        <span key={t.id} className={`editor-tab${t.id === props.state.activeId ? ' active' : ''}`}>
          <button
            type="button"
            role="tab"
            aria-selected={t.id === props.state.activeId}
            className="tab-title"
            onClick={() => props.onSelect(t.id)}
            title={t.sql.slice(0, 200) || 'empty'}
          >
            {t.title}
          </button>
          <button
            type="button"
            className="tab-close"
            aria-label={`Close ${t.title}`}
            onClick={() => props.onClose(t.id)}
          >
            ×
          </button>
        </span>
      ))}
      <button type="button" className="tab-add" aria-label="New tab" title="New tab" onClick={props.onAdd}>
        +
      </button>
    </div>
  );
}
