// Keys the editor (Monaco), the results grid and the object tree handle themselves, listed in the web kit's
// shortcuts help next to the navigation keys. None of these texts equals a single key, so the kit never
// acts on them.
import { useShortcut } from '@app/web-kit';

const EDITOR_SHORTCUTS: [keys: string, what: string, group: string][] = [
  ['Ctrl/⌘+Enter', 'Run the selection, or the statement under the cursor', 'Editor'],
  ['Ctrl/⌘+Shift+Enter', 'Run the whole script (every statement, per-statement results)', 'Editor'],
  ['Shift+Alt+F', 'Format the editor text', 'Editor'],
  ['Ctrl/⌘+Space', 'Complete schemas, tables, columns and keywords', 'Editor'],
  ['Ctrl/⌘+/', 'Comment or uncomment lines', 'Editor'],
  ['Ctrl/⌘+F', 'Find in the editor', 'Editor'],
  ['Ctrl/⌘+C', 'Copy the selected rows as TSV', 'Results grid'],
  ['Ctrl/⌘+A', 'Select every loaded row', 'Results grid'],
  ['Shift/Ctrl+click', 'Extend or toggle the row selection', 'Results grid'],
  ['Double-click', 'Open the value viewer (JSON pretty-printed)', 'Results grid'],
  ['↑/↓', 'Move between objects and folders', 'Object tree'],
  ['←/→', 'Fold or open a folder; ← on an object goes to its folder', 'Object tree'],
  ['Home/End', 'First or last row of the tree', 'Object tree'],
];

function Entry({ keys, what, group }: { keys: string; what: string; group: string }) {
  useShortcut(keys, what, () => undefined, { group });
  return null;
}

export function EditorShortcuts() {
  return (
    <>
      {EDITOR_SHORTCUTS.map(([keys, what, group]) => (
        <Entry key={keys} keys={keys} what={what} group={group} />
      ))}
    </>
  );
}
