// Where the statements of a script are (dbgate-query-splitter, the splitter the server also uses, with the
// engine's options from provider-meta: strings, quoted identifiers, comments, dollar quotes), and which one
// the cursor is in — so Ctrl/Cmd-Enter runs exactly the statement a person is looking at.

import { type StatementSpan, statementAtOffset } from '@app/web-kit/monaco';
import { type SplitterOptions, splitQuery } from 'dbgate-query-splitter';
import type { EditorFacts } from '../lib/engines';

interface RichItem {
  text: string;
  start: { position: number };
  end: { position: number };
  trimStart?: { position: number };
  trimEnd?: { position: number };
}

export type { StatementSpan };

/**
 * Where a script is split: the engine's splitter options exactly as its server descriptor sets them, answered
 * by provider-meta (`editor.splitter`), so a text the editor sees as one statement is one statement to the
 * server, which refuses several (test/statements-match-server.test.ts compares the two).
 */
export type SplitFacts = Pick<EditorFacts, 'splitter'>;

/** The statements of `script` with their offsets; blank text has none. */
export function splitStatements(script: string, facts: SplitFacts): StatementSpan[] {
  if (!script.trim()) return [];
  const items = splitQuery(script, {
    ...(facts.splitter as unknown as SplitterOptions),
    returnRichInfo: true,
  }) as unknown as (RichItem | string)[];
  const out: StatementSpan[] = [];
  for (const item of items) {
    if (typeof item === 'string' || !item.text.trim()) continue;
    const start = (item.trimStart ?? item.start).position;
    const end = (item.trimEnd ?? item.end).position;
    out.push({ text: item.text.trim(), start, end: Math.max(end, start + item.text.trim().length) });
  }
  return out;
}

/** The statement at `offset` (the kit's rule: the one containing it, else the one just written before it). */
export function statementAt(script: string, facts: SplitFacts, offset: number): StatementSpan | undefined {
  return statementAtOffset(splitStatements(script, facts), offset);
}
