// A React wrapper of a Monaco editor, loaded lazily: shows a spinner until the Monaco chunk arrives, follows
// the kit's light/dark theme, reports edits through `onChange`, and shows `markers` (server errors at their
// line and column) under their own owner so they never clear the language's own diagnostics. A page whose
// text is statements (SQL) passes a `pack` (statements.ts): completion, the statement under the cursor, run
// keys and Format, supplied by the page and wired here.
import { useEffect, useRef, useState } from 'react';
import { Spinner } from '../components/Spinner';
import { ErrorState } from '../components/States';
import { useTheme } from '../theme/theme';
import { loadMonaco, type MonacoModule } from './load';
import { attachStatementPack, type StatementPack } from './statements';

type Monaco = MonacoModule['monaco'];
type Editor = ReturnType<Monaco['editor']['create']>;
/** Construction options a page may add (placeholder, word wrap, when suggestions open…). */
export type EditorOptions = Parameters<Monaco['editor']['create']>[1];

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
  /**
   * Whether the kit draws the editor's border (default true). A page that places the editor in a box with its
   * own border (a resizable pane, tabs above it) passes false, so the frame shows once.
   */
  framed?: boolean;
  /** Test id of the editor's box (default `monaco-host`). */
  testId?: string;
  /** Construction options besides the kit's defaults (read once, when the editor is built). */
  options?: EditorOptions;
  /** Statement facts and actions of the text (statements.ts), read afresh on every use. */
  pack?: StatementPack;
  /** Runs once the editor exists (configure schemas, add commands, keep a reference); may answer a cleanup. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a callback that answers nothing is the common case
  onReady?(editor: Editor, kit: MonacoModule): void | (() => void);
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
  framed = true,
  testId = 'monaco-host',
  options,
  pack,
  onReady,
}: MonacoEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Editor | null>(null);
  const kitRef = useRef<MonacoModule | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const onReadyRef = useRef(onReady);
  onReadyRef.current = onReady;
  const packRef = useRef(pack);
  packRef.current = pack;
  const [state, setState] = useState<'loading' | 'ready' | Error>('loading');
  const { theme } = useTheme();
  const initial = useRef({ value, language, path, readOnly, label, theme, options, withPack: !!pack });

  useEffect(() => {
    let disposed = false;
    const cleanups: (() => void)[] = [];
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
          ...i.options,
        });
        editor.onDidChangeModelContent(() => onChangeRef.current?.(editor.getValue()));
        editorRef.current = editor;
        kitRef.current = kit;
        setState('ready');
        if (i.withPack) cleanups.push(attachStatementPack(kit, editor, () => packRef.current ?? {}));
        const cleanup = onReadyRef.current?.(editor, kit);
        if (cleanup) cleanups.push(cleanup);
      },
      (err: unknown) => !disposed && setState(err instanceof Error ? err : new Error(String(err))),
    );
    return () => {
      disposed = true;
      for (const cleanup of cleanups) cleanup();
      const editor = editorRef.current;
      editor?.getModel()?.dispose();
      editor?.dispose();
      editorRef.current = null;
    };
  }, []);

  // Outside edits (a reset, a loaded file, a history entry) replace the text as one edit that Ctrl-Z undoes;
  // the editor's own edits already match.
  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model || editor.getValue() === value) return;
    if (readOnly) editor.setValue(value);
    else editor.executeEdits('outside', [{ range: model.getFullModelRange(), text: value }]);
  }, [value, readOnly]);

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
    <div className={framed ? 'kit-editor' : 'kit-editor kit-editor--bare'} style={{ height }}>
      {state === 'loading' && <Spinner label="Loading editor…" />}
      {state instanceof Error && <ErrorState error={state} title="The editor failed to load" />}
      <div ref={host} className="kit-editor-host" data-testid={testId} />
    </div>
  );
}
