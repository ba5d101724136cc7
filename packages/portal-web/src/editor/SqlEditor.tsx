// The editor as the workspace sees it: the web kit's Monaco (`@app/web-kit/monaco`, fetched when the first
// editor mounts) given the engine's facts from provider-meta (its Monaco language, statement splitter,
// formatter and completion words) as the kit's statement pack, behind a small imperative handle — the text to
// run (selection, statement under the cursor, whole script), formatting, focus and insertion.
import {
  formatEditor,
  MonacoEditor,
  type MonacoEditorProps,
  runTarget,
  type StatementPack,
} from '@app/web-kit/monaco';
import { forwardRef, useImperativeHandle, useRef } from 'react';
import { type EditorFacts, isSql, useEngine } from '../lib/engines';
import { type CompletionSource, suggest } from './completion';
import { splitStatements } from './statements';

export interface RunRequest {
  kind: 'selection' | 'statement' | 'script';
  text: string;
}

export interface SqlEditorHandle {
  /** Selection if any, else the statement under the cursor (Ctrl/Cmd-Enter). */
  current(): RunRequest | undefined;
  /** The whole text (Ctrl/Cmd-Shift-Enter). */
  script(): RunRequest | undefined;
  format(): void;
  focus(): void;
  insert(text: string): void;
}

export interface SqlEditorProps {
  value: string;
  onChange: (text: string) => void;
  engine: string;
  /** The connection's objects for completion; the words come with the engine's facts. */
  completion: () => Omit<CompletionSource, 'keywords'>;
  onRun: (req: RunRequest) => void;
  placeholder?: string;
}

type Editor = Parameters<NonNullable<MonacoEditorProps['onReady']>>[0];

const NO_OBJECTS = async () => ({ objects: [], complete: true });
const NO_COLUMNS = async () => undefined;

/** Format as the engine's facts say: sql-formatter in its language, JSON pretty-printed, or nothing. */
function formatterFor(facts: EditorFacts): StatementPack['format'] {
  const language = facts.formatter;
  if (!language) return undefined;
  if (language === 'json') return async (text) => JSON.stringify(JSON.parse(text), null, 2);
  return async (text) => {
    const { format } = await import('sql-formatter');
    return format(text, { language: language as 'sql', keywordCase: 'upper' });
  };
}

/** The kit's statement pack for one engine's text and the workspace's callbacks. */
function packOf(facts: EditorFacts, props: SqlEditorProps): StatementPack {
  return {
    statements: isSql(facts) ? (text) => splitStatements(text, facts) : undefined,
    complete: (before, statement) => {
      const src = { ...props.completion(), keywords: facts.keywords };
      // A failed read of the object surface leaves keywords only rather than no list at all.
      return suggest(before, statement, src).catch(() =>
        suggest(before, statement, { ...src, objects: NO_OBJECTS, columns: NO_COLUMNS }),
      );
    },
    format: formatterFor(facts),
    run: props.onRun,
  };
}

export const SqlEditor = forwardRef<SqlEditorHandle, SqlEditorProps>(function SqlEditor(props, ref) {
  const facts = useEngine(props.engine)?.editor;
  const editor = useRef<Editor | null>(null);
  const pack = facts ? packOf(facts, props) : undefined;
  const latest = useRef(pack);
  latest.current = pack;

  useImperativeHandle(ref, () => ({
    current: () => (editor.current && latest.current ? runTarget(editor.current, latest.current) : undefined),
    script: () =>
      editor.current && latest.current ? runTarget(editor.current, latest.current, true) : undefined,
    format: () => {
      if (editor.current && latest.current) void formatEditor(editor.current, latest.current);
    },
    focus: () => editor.current?.focus(),
    insert: (text) => {
      const ed = editor.current;
      const sel = ed?.getSelection();
      if (ed && sel) ed.executeEdits('insert', [{ range: sel, text }]);
    },
  }));

  // The engine's facts arrive with the engine list (one request per page load): until then the text shows.
  if (!facts || !pack) {
    return (
      <pre className="editor-loading" aria-busy="true">
        {props.value || 'Loading editor…'}
      </pre>
    );
  }
  return (
    <MonacoEditor
      label="SQL editor"
      testId="sql-editor"
      language={facts.language}
      value={props.value}
      onChange={props.onChange}
      height="100%"
      framed={false}
      pack={pack}
      options={{
        placeholder: props.placeholder,
        wordWrap: 'on',
        renderLineHighlight: 'line',
        quickSuggestions: { other: true, comments: false, strings: false },
        suggestOnTriggerCharacters: true,
        fixedOverflowWidgets: true,
      }}
      onReady={(ed) => {
        editor.current = ed;
        return () => {
          editor.current = null;
        };
      }}
    />
  );
});
