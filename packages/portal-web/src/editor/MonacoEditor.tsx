// Monaco itself (this module is its own chunk, see SqlEditor): the model in the engine's language, the run
// keys (Ctrl/Cmd-Enter: selection or statement under the cursor; Ctrl/Cmd-Shift-Enter: whole script),
// Shift-Alt-F to format (sql-formatter, loaded on first use), and completion of schemas, tables, columns and
// keywords from the connection's object surface.
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { type Suggestion, suggest } from './completion';
import { isSqlEngine, languageFor } from './language';
import { type Monaco, monaco } from './monaco-setup';
import type { SqlEditorHandle, SqlEditorProps } from './SqlEditor';
import { splitStatements, statementAt } from './statements';

const splitCount = (text: string, engine: string) => splitStatements(text, engine).length;

type Editor = ReturnType<Monaco['editor']['create']>;

/** Completion sources per model, so one provider per language serves every open editor. */
const sources = new Map<string, { engine: string; get: SqlEditorProps['completion'] }>();
const registered = new Set<string>();

const NO_OBJECTS = async () => ({ objects: [], complete: true });
const NO_COLUMNS = async () => undefined;

function kindOf(k: Suggestion['kind']) {
  const K = monaco.languages.CompletionItemKind;
  return {
    keyword: K.Keyword,
    schema: K.Module,
    table: K.Struct,
    view: K.Interface,
    column: K.Field,
    other: K.Value,
  }[k];
}

function registerCompletion(language: string): void {
  if (registered.has(language)) return;
  registered.add(language);
  monaco.languages.registerCompletionItemProvider(language, {
    triggerCharacters: ['.', ' '],
    async provideCompletionItems(model, position) {
      const src = sources.get(model.uri.toString());
      if (!src) return { suggestions: [] };
      const text = model.getValue();
      const offset = model.getOffsetAt(position);
      const stmt = statementAt(text, src.engine, offset);
      const from = stmt && stmt.start <= offset ? stmt.start : 0;
      const before = text.slice(from, offset);
      const word = model.getWordUntilPosition(position);
      const range = {
        startLineNumber: position.lineNumber,
        endLineNumber: position.lineNumber,
        startColumn: word.startColumn,
        endColumn: word.endColumn,
      };
      // A failed read of the object surface leaves keywords only rather than no list at all.
      const found = await suggest(before, stmt?.text ?? before, src.get()).catch(() =>
        suggest(before, stmt?.text ?? before, { ...src.get(), objects: NO_OBJECTS, columns: NO_COLUMNS }),
      );
      return {
        // More objects matched than were fetched: Monaco asks again as the word grows.
        incomplete: !found.complete,
        suggestions: found.items.map((s, i) => ({
          label: s.label,
          kind: kindOf(s.kind),
          detail: s.detail,
          insertText: s.label,
          range,
          // Columns first, then objects, then keywords: what is most specific to this statement leads.
          sortText: `${{ column: 0, table: 1, view: 1, schema: 2, other: 3, keyword: 4 }[s.kind]}${String(i).padStart(5, '0')}`,
        })),
      };
    },
  });
}

const FORMAT_LANGUAGE: Record<string, string> = {
  postgres: 'postgresql',
  mysql: 'mysql',
  mssql: 'transactsql',
  oracle: 'plsql',
  sqlite: 'sqlite',
  libsql: 'sqlite',
  duckdb: 'duckdb',
  clickhouse: 'clickhouse',
  trino: 'trino',
  athena: 'trino',
  cassandra: 'sql',
};

async function formatText(text: string, engine: string): Promise<string> {
  if (engine === 'mongodb') return JSON.stringify(JSON.parse(text), null, 2);
  if (!isSqlEngine(engine)) return text;
  const { format } = await import('sql-formatter');
  return format(text, { language: (FORMAT_LANGUAGE[engine] ?? 'sql') as 'sql', keywordCase: 'upper' });
}

const MonacoEditor = forwardRef<SqlEditorHandle, SqlEditorProps>(function MonacoEditor(props, ref) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<Editor | null>(null);
  const latest = useRef(props);
  latest.current = props;

  // The editor is built once per mount; engine changes remount it (the workspace keys it by connection).
  // biome-ignore lint/correctness/useExhaustiveDependencies: built once, reads the latest props through `latest`
  useEffect(() => {
    if (!host.current) return;
    const language = languageFor(props.engine);
    registerCompletion(language);
    const model = monaco.editor.createModel(props.value, language);
    sources.set(model.uri.toString(), { engine: props.engine, get: () => latest.current.completion() });
    const ed = monaco.editor.create(host.current, {
      model,
      ariaLabel: 'SQL editor',
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      scrollBeyondLastLine: false,
      wordWrap: 'on',
      tabSize: 2,
      renderLineHighlight: 'line',
      placeholder: props.placeholder,
      quickSuggestions: { other: true, comments: false, strings: false },
      suggestOnTriggerCharacters: true,
      fixedOverflowWidgets: true,
    });
    editor.current = ed;
    const sub = model.onDidChangeContent(() => latest.current.onChange(model.getValue()));
    // The statement Ctrl/Cmd-Enter would run is shaded, so a person sees what runs before pressing it.
    const current = ed.createDecorationsCollection();
    const shade = () => {
      const pos = ed.getPosition();
      const text = model.getValue();
      const stmt =
        pos && isSqlEngine(latest.current.engine)
          ? statementAt(text, latest.current.engine, model.getOffsetAt(pos))
          : undefined;
      if (!stmt || splitCount(text, latest.current.engine) < 2) {
        current.clear();
        return;
      }
      const from = model.getPositionAt(stmt.start);
      const to = model.getPositionAt(stmt.end);
      current.set([
        {
          range: new monaco.Range(from.lineNumber, from.column, to.lineNumber, to.column),
          options: { className: 'current-statement', isWholeLine: false },
        },
      ]);
    };
    const cursorSub = ed.onDidChangeCursorPosition(shade);
    const runCurrent = () => {
      const req = handle.current();
      if (req) latest.current.onRun(req);
    };
    const runScript = () => {
      const req = handle.script();
      if (req) latest.current.onRun(req);
    };
    ed.addAction({
      id: 'portal.run',
      label: 'Run statement or selection',
      keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter],
      run: runCurrent,
    });
    ed.addAction({
      id: 'portal.runScript',
      label: 'Run whole script',
      keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyMod.Shift | monaco.KeyCode.Enter],
      run: runScript,
    });
    ed.addAction({
      id: 'portal.format',
      label: 'Format',
      keybindings: [monaco.KeyMod.Shift | monaco.KeyMod.Alt | monaco.KeyCode.KeyF],
      run: () => handle.format(),
    });
    return () => {
      sub.dispose();
      cursorSub.dispose();
      sources.delete(model.uri.toString());
      ed.dispose();
      model.dispose();
      editor.current = null;
    };
  }, []);

  // Text set from outside (Query this, history, a tab switch) replaces the model's text.
  useEffect(() => {
    const ed = editor.current;
    const model = ed?.getModel();
    if (model && model.getValue() !== props.value) {
      ed?.executeEdits('portal', [{ range: model.getFullModelRange(), text: props.value }]);
    }
  }, [props.value]);

  useEffect(() => {
    monaco.editor.setTheme(props.theme === 'dark' ? 'vs-dark' : 'vs');
  }, [props.theme]);

  const handle: SqlEditorHandle = {
    current() {
      const ed = editor.current;
      const model = ed?.getModel();
      if (!ed || !model) return undefined;
      const sel = ed.getSelection();
      if (sel && !sel.isEmpty()) {
        const text = model.getValueInRange(sel);
        if (text.trim()) return { kind: 'selection', text };
      }
      const pos = ed.getPosition();
      const text = model.getValue();
      if (!text.trim()) return undefined;
      if (!isSqlEngine(latest.current.engine)) return { kind: 'script', text };
      const stmt = statementAt(text, latest.current.engine, pos ? model.getOffsetAt(pos) : 0);
      return stmt ? { kind: 'statement', text: stmt.text } : undefined;
    },
    script() {
      const text = editor.current?.getModel()?.getValue() ?? '';
      return text.trim() ? { kind: 'script', text } : undefined;
    },
    format() {
      const ed = editor.current;
      const model = ed?.getModel();
      if (!ed || !model) return;
      void formatText(model.getValue(), latest.current.engine)
        .then((text) => {
          if (text !== model.getValue())
            ed.executeEdits('format', [{ range: model.getFullModelRange(), text }]);
        })
        .catch(() => undefined);
    },
    focus() {
      editor.current?.focus();
    },
    insert(text: string) {
      const ed = editor.current;
      const sel = ed?.getSelection();
      if (ed && sel) ed.executeEdits('insert', [{ range: sel, text }]);
    },
  };
  useImperativeHandle(ref, () => handle);

  return <div ref={host} className="monaco-host" data-testid="sql-editor" />;
});

export default MonacoEditor;
