// The Monaco entry of the kit (`@app/web-kit/monaco`): the lazy loader and the React editor. Kept apart from
// the main entry so importing the kit never pulls Monaco into a page's first chunk.

export { loadMonaco, type MonacoModule } from './load';
export { type EditorMarker, MonacoEditor, type MonacoEditorProps } from './MonacoEditor';
