// The engines the server runs (`POST /api/db/provider-meta` with an empty body): id, label, dialect, default port,
// file-based flag, capability flags and the editor's facts (what the text is, its Monaco language, formatter,
// completion words and the dialect's statement splitter), in the order to offer them. Fetched once per page
// load (the server's engine list does not change while it runs) and shared by every view that asks about an
// engine: the UI keeps no engine list or per-engine table of its own.
import { useQuery } from '@tanstack/react-query';
import { apiPost } from './api';
import type { EngineMeta } from './types';

/** What the editor needs of an engine's text (providers/editor-facts.ts on the server). */
export type EditorFacts = EngineMeta['editor'];

export function useEngines() {
  return useQuery({
    queryKey: ['engines'],
    // The empty body asks for every engine: the answer's `engines` is then always present.
    queryFn: async (): Promise<EngineMeta[]> => (await apiPost('/api/db/provider-meta', {})).engines ?? [],
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** One engine's entry, once the list has arrived. */
export function useEngine(type: string): EngineMeta | undefined {
  return useEngines().data?.find((e) => e.engine === type);
}

/** Whether the engine's text is SQL statements (scripts, formatting, table completion make sense). */
export function isSql(facts: Pick<EditorFacts, 'request'> | undefined): boolean {
  return facts?.request === 'sql';
}
