// The keyboard shortcuts, listed in a dialog opened with "?" (outside text fields) or from the top bar.
const SHORTCUTS: [string, string][] = [
  ['Ctrl/⌘ + Enter', 'Run the selection, or the statement under the cursor'],
  ['Ctrl/⌘ + Shift + Enter', 'Run the whole script (every statement, per-statement results)'],
  ['Shift + Alt + F', 'Format the editor text'],
  ['Ctrl/⌘ + Space', 'Complete schemas, tables, columns and keywords'],
  ['Ctrl/⌘ + /', 'Comment or uncomment lines'],
  ['Ctrl/⌘ + F', 'Find in the editor'],
  ['Ctrl/⌘ + C (grid)', 'Copy the selected rows as TSV'],
  ['Ctrl/⌘ + A (grid)', 'Select every loaded row'],
  ['Shift / Ctrl + click (grid)', 'Extend or toggle the row selection'],
  ['Double click (grid)', 'Open the value viewer (JSON pretty-printed)'],
  ['?', 'This list'],
  ['Esc', 'Close a dialog'],
];

export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts">
        <div className="section-head">
          <h2>Keyboard shortcuts</h2>
          <span className="spacer" />
          <button type="button" className="icon-btn" aria-label="Close shortcuts" onClick={onClose}>
            ✕
          </button>
        </div>
        <table className="plain-table">
          <tbody>
            {SHORTCUTS.map(([k, what]) => (
              <tr key={k}>
                <td>
                  <kbd>{k}</kbd>
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
