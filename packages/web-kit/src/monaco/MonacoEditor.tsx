// A React wrapper of a Monaco editor, loaded lazily: shows a spinner until the Monaco chunk arrives, follows
// the kit's light/dark theme, reports edits through `onChange`, and shows `markers` (server errors at their
// line and column) under their own owner so they never clear the language's own diagnostics.
import { useEffect, useRef, useState } from 'react';
import { Spinner } from '../components/Spinner';
import { ErrorState } from '../components/States';
import { useTheme } from '../theme/theme';
import { loadMonaco, type MonacoModule } from './load';

type Monaco = MonacoModule['monaco'];
type Editor = ReturnType<Monaco['editor']['create']>;

export interface EditorMarker {
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  message: string;
  severity?: 'error' | 'warning' | 'info';
}

export interface MonacoEditorProps {
  value: string;
  onChange?(value: string): void;
  language: string;
  /** A model URI such as `file:///bundle.yaml`; monaco-yaml matches schemas to it with `fileMatch`. */
  path?: string;
  markers?: EditorMarker[];
  readOnly?: boolean;
  /** Accessible name of the editing area. */
  label: string;
  height?: number | string;
  /** Runs once the editor exists (configure schemas, add commands, keep a reference). */
  onReady?(editor: Editor, kit: MonacoModule): void;
}

const MARKER_OWNER = 'server';

export function MonacoEditor({
  value,
  onChange,
  language,
  path,
  markers,
  readOnly,
  label,
  height = 420,
  onReady,
}: MonacoEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Editor | null>(null);
  const kitRef = useRef<MonacoModule | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const onReadyRef = useRef(onReady);
  onReadyRef.current = onReady;
  const [state, setState] = useState<'loading' | 'ready' | Error>('loading');
  const { theme } = useTheme();
  const initial = useRef({ value, language, path, readOnly, label, theme });

  useEffect(() => {
    let disposed = false;
    loadMonaco().then(
      (kit) => {
        if (disposed || !host.current) return;
        const { monaco } = kit;
        const i = initial.current;
        const uri = i.path ? monaco.Uri.parse(i.path) : undefined;
        const model =
          (uri && monaco.editor.getModel(uri)) || monaco.editor.createModel(i.value, i.language, uri);
        model.setValue(i.value);
        const editor = monaco.editor.create(host.current, {
          model,
          readOnly: i.readOnly,
          automaticLayout: true,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          fontSize: 13,
          tabSize: 2,
          ariaLabel: i.label,
          theme: i.theme === 'dark' ? 'vs-dark' : 'vs',
        });
        editor.onDidChangeModelContent(() => onChangeRef.current?.(editor.getValue()));
        editorRef.current = editor;
        kitRef.current = kit;
        setState('ready');
        onReadyRef.current?.(editor, kit);
      },
      (err: unknown) => !disposed && setState(err instanceof Error ? err : new Error(String(err))),
    );
    return () => {
      disposed = true;
      const editor = editorRef.current;
      editor?.getModel()?.dispose();
      editor?.dispose();
      editorRef.current = null;
    };
  }, []);

  // Outside edits (a reset, a loaded file) replace the text; the editor's own edits already match.
  useEffect(() => {
    const editor = editorRef.current;
    if (editor && editor.getValue() !== value) editor.setValue(value);
  }, [value]);

  useEffect(() => {
    kitRef.current?.monaco.editor.setTheme(theme === 'dark' ? 'vs-dark' : 'vs');
  }, [theme]);

  useEffect(() => {
    const editor = editorRef.current;
    const kit = kitRef.current;
    const model = editor?.getModel();
    if (state !== 'ready' || !kit || !model) return;
    const severity = kit.monaco.MarkerSeverity;
    kit.monaco.editor.setModelMarkers(
      model,
      MARKER_OWNER,
      (markers ?? []).map((m) => ({
        startLineNumber: m.line,
        startColumn: m.column,
        endLineNumber: m.endLine ?? m.line,
        endColumn: m.endColumn ?? model.getLineMaxColumn(Math.min(m.line, model.getLineCount())),
        message: m.message,
        severity:
          m.severity === 'warning'
            ? severity.Warning
            : m.severity === 'info'
              ? severity.Info
              : severity.Error,
      })),
    );
  }, [markers, state]);

  return (
    <div className="kit-editor" style={{ height }}>
      {state === 'loading' && <Spinner label="Loading editor…" />}
      {state instanceof Error && <ErrorState error={state} title="The editor failed to load" />}
      <div ref={host} className="kit-editor-host" data-testid="monaco-host" />
    </div>
  );
}
