// The Monaco entry of the kit (`@app/web-kit/monaco`): the lazy loader and the React editor. Kept apart from
// the main entry so importing the kit never pulls Monaco into a page's first chunk.

export { loadMonaco, type MonacoModule } from './load';
export { type EditorMarker, type EditorOptions, MonacoEditor, type MonacoEditorProps } from './MonacoEditor';
export {
  type CompletionItem,
  type CompletionKind,
  formatEditor,
  type RunText,
  runTarget,
  type StatementPack,
  type StatementSpan,
  statementAtOffset,
} from './statements';
