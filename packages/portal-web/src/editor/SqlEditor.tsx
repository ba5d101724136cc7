// The editor as the workspace sees it: a lazily loaded Monaco (its chunk is fetched when the first editor
// mounts) behind a small imperative handle — the text to run (selection, statement under the cursor, whole
// script), formatting and focus. While Monaco loads, a read-only preview keeps the layout steady.
import { forwardRef, lazy, Suspense } from 'react';
import type { CompletionSource } from './completion';

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
  theme: 'light' | 'dark';
  completion: () => CompletionSource;
  onRun: (req: RunRequest) => void;
  placeholder?: string;
}

const MonacoEditor = lazy(() => import('./MonacoEditor'));

export const SqlEditor = forwardRef<SqlEditorHandle, SqlEditorProps>(function SqlEditor(props, ref) {
  return (
    <Suspense
      fallback={
        <pre className="editor-loading" aria-busy="true">
          {props.value || 'Loading editor…'}
        </pre>
      }
    >
      <MonacoEditor ref={ref} {...props} />
    </Suspense>
  );
});
