// The kit's language pack for texts made of statements (the portal's SQL, a document engine's JSON request, a
// command line): the page supplies the facts as hooks — where the statements are (its engine's splitter), what
// completion offers at the cursor, how Format rewrites the text, what a run key does — and this module wires
// them to Monaco once: one completion provider per language serving every editor by its model, the statement
// under the cursor shaded (class `current-statement`), Ctrl/Cmd-Enter (selection, else the statement under the
// cursor), Ctrl/Cmd-Shift-Enter (the whole text) and Shift-Alt-F (Format). Monaco arrives as a parameter, so
// this file adds nothing to a page's first chunk.
import type { MonacoModule } from './load';

type Monaco = MonacoModule['monaco'];
type Editor = ReturnType<Monaco['editor']['create']>;

export interface StatementSpan {
  text: string;
  /** Offsets into the text (start inclusive, end exclusive), trimmed of surrounding blanks. */
  start: number;
  end: number;
}

export type CompletionKind = 'keyword' | 'schema' | 'table' | 'view' | 'column' | 'other';

export interface CompletionItem {
  label: string;
  kind: CompletionKind;
  detail?: string;
}

/** What a run key asks to run: the selection, the statement under the cursor, or the whole text. */
export interface RunText {
  kind: 'selection' | 'statement' | 'script';
  text: string;
}

export interface StatementPack {
  /** The statements of a text with their offsets; absent: the text is one request (JSON, a command line). */
  statements?(text: string): StatementSpan[];
  /** Completion for the statement at the cursor: its text up to the cursor, and the whole statement. */
  complete?(before: string, statement: string): Promise<{ items: CompletionItem[]; complete: boolean }>;
  /** Format's rewrite of the text; absent: Format leaves the text as written. */
  format?(text: string): Promise<string>;
  /** What Ctrl/Cmd-Enter and Ctrl/Cmd-Shift-Enter run; absent: the run keys do nothing. */
  run?(target: RunText): void;
}

/**
 * The statement at `offset`: the one containing it, else the nearest one ending before it (a cursor after the
 * final semicolon still means the statement just written), else the first.
 */
export function statementAtOffset(all: StatementSpan[], offset: number): StatementSpan | undefined {
  if (all.length === 0) return undefined;
  const inside = all.find((s) => offset >= s.start && offset <= s.end);
  if (inside) return inside;
  const before = all.filter((s) => s.end <= offset);
  return before.length > 0 ? before[before.length - 1] : all[0];
}

/** The pack of each model (by URI), so one completion provider per language serves every open editor. */
const packs = new Map<string, () => StatementPack>();
const registered = new Set<string>();

// Columns first, then objects, then keywords: what is most specific to the statement leads.
const ORDER: Record<CompletionKind, number> = {
  column: 0,
  table: 1,
  view: 1,
  schema: 2,
  other: 3,
  keyword: 4,
};

function registerCompletion(monaco: Monaco, language: string): void {
  if (registered.has(language)) return;
  registered.add(language);
  const K = monaco.languages.CompletionItemKind;
  const kinds: Record<CompletionKind, number> = {
    keyword: K.Keyword,
    schema: K.Module,
    table: K.Struct,
    view: K.Interface,
    column: K.Field,
    other: K.Value,
  };
  monaco.languages.registerCompletionItemProvider(language, {
    triggerCharacters: ['.', ' '],
    async provideCompletionItems(model, position) {
      const pack = packs.get(model.uri.toString())?.();
      if (!pack?.complete) return { suggestions: [] };
      const text = model.getValue();
      const offset = model.getOffsetAt(position);
      const stmt = pack.statements ? statementAtOffset(pack.statements(text), offset) : undefined;
      const from = stmt && stmt.start <= offset ? stmt.start : 0;
      const before = text.slice(from, offset);
      const word = model.getWordUntilPosition(position);
      const range = {
        startLineNumber: position.lineNumber,
        endLineNumber: position.lineNumber,
        startColumn: word.startColumn,
        endColumn: word.endColumn,
      };
      const found = await pack.complete(before, stmt?.text ?? before);
      return {
        // More matched than the page fetched: Monaco asks again as the word grows.
        incomplete: !found.complete,
        suggestions: found.items.map((s, i) => ({
          label: s.label,
          kind: kinds[s.kind],
          detail: s.detail,
          insertText: s.label,
          range,
          sortText: `${ORDER[s.kind]}${String(i).padStart(5, '0')}`,
        })),
      };
    },
  });
}

/** What a run key means now: the selection if any, else the statement under the cursor (or the whole text). */
export function runTarget(editor: Editor, pack: StatementPack, whole = false): RunText | undefined {
  const model = editor.getModel();
  if (!model) return undefined;
  const text = model.getValue();
  if (whole) return text.trim() ? { kind: 'script', text } : undefined;
  const sel = editor.getSelection();
  if (sel && !sel.isEmpty()) {
    const selected = model.getValueInRange(sel);
    if (selected.trim()) return { kind: 'selection', text: selected };
  }
  if (!text.trim()) return undefined;
  if (!pack.statements) return { kind: 'script', text };
  const pos = editor.getPosition();
  const stmt = statementAtOffset(pack.statements(text), pos ? model.getOffsetAt(pos) : 0);
  return stmt ? { kind: 'statement', text: stmt.text } : undefined;
}

/** Rewrites the editor's text with the pack's formatter (one undoable edit); a text it cannot read stays. */
export async function formatEditor(editor: Editor, pack: StatementPack): Promise<void> {
  const model = editor.getModel();
  if (!model || !pack.format) return;
  const text = await pack.format(model.getValue()).catch(() => undefined);
  if (text !== undefined && text !== model.getValue()) {
    editor.executeEdits('format', [{ range: model.getFullModelRange(), text }]);
  }
}

/** Wires a pack (read afresh on every use, so it may change) to an editor; answers the disposer. */
export function attachStatementPack(
  kit: MonacoModule,
  editor: Editor,
  pack: () => StatementPack,
): () => void {
  const { monaco } = kit;
  const model = editor.getModel();
  if (!model) return () => undefined;
  const key = model.uri.toString();
  packs.set(key, pack);
  registerCompletion(monaco, model.getLanguageId());
  // The statement Ctrl/Cmd-Enter would run is shaded, so a person sees what runs before pressing it.
  const current = editor.createDecorationsCollection();
  const shade = () => {
    const p = pack();
    const pos = editor.getPosition();
    const all = p.statements ? p.statements(model.getValue()) : [];
    const stmt = pos && all.length > 1 ? statementAtOffset(all, model.getOffsetAt(pos)) : undefined;
    if (!stmt) {
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
  const cursor = editor.onDidChangeCursorPosition(shade);
  const run = (whole: boolean) => {
    const p = pack();
    const target = runTarget(editor, p, whole);
    if (target) p.run?.(target);
  };
  const actions = [
    editor.addAction({
      id: 'kit.run',
      label: 'Run statement or selection',
      keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter],
      run: () => run(false),
    }),
    editor.addAction({
      id: 'kit.runScript',
      label: 'Run whole script',
      keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyMod.Shift | monaco.KeyCode.Enter],
      run: () => run(true),
    }),
    editor.addAction({
      id: 'kit.format',
      label: 'Format',
      keybindings: [monaco.KeyMod.Shift | monaco.KeyMod.Alt | monaco.KeyCode.KeyF],
      run: () => formatEditor(editor, pack()),
    }),
  ];
  return () => {
    cursor.dispose();
    for (const a of actions) a.dispose();
    current.clear();
    packs.delete(key);
  };
}
