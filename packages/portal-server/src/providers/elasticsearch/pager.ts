// Runs one SQL statement on a search engine and follows the engine's cursor: both engines page large
// results (and aggregations) themselves, answering a cursor until the last page. `readPages` yields page
// after page until the consumer stops (it holds the rows it wants), the cursor ends, or 1000 pages were
// read (then `state.pageCapHit` reports the truncation). A cursor left unfollowed is closed so the engine
// frees its search context. The statement goes out without a trailing semicolon (neither engine's grammar
// takes one; the portal strips it rather than refusing a statement the user would read as complete).
import { queryError } from '../errors.js';
import type { SearchClient } from './client.js';
import type { SearchFlavor } from './flavor.js';

/** The most pages of one statement the provider reads (spec: "follows the cursor up to 1000 pages"). */
export const MAX_PAGES = 1000;
/** Rows asked for per page (Elasticsearch's own default fetch size). */
export const MAX_FETCH_SIZE = 1000;

/** The statement as sent: trailing whitespace and semicolons removed. */
export function withoutTrailingSemicolon(sql: string): string {
  return sql.replace(/[\s;]+$/u, '');
}

export interface SqlPageRows {
  names: string[];
  types: string[];
  rows: unknown[][];
}

/** How a read ended, filled in as the generator finishes. */
export interface ReadState {
  /** The engine had more pages than were read. */
  more: boolean;
  /** The 1000-page cap stopped the read (the consumer still wanted rows). */
  pageCapHit: boolean;
}

export async function* readPages(
  client: SearchClient,
  flavor: SearchFlavor,
  sql: string,
  fetchSize: number,
  signal: AbortSignal,
  state: ReadState,
): AsyncGenerator<SqlPageRows> {
  const query = withoutTrailingSemicolon(sql);
  if (query === '') throw queryError('The statement is empty');
  const post = async (body: Record<string, unknown>) =>
    flavor.parsePage(await client.request({ method: 'POST', path: flavor.sqlPath, body, signal }));
  let page = await post(flavor.firstBody(query, Math.max(1, Math.min(MAX_FETCH_SIZE, fetchSize))));
  // Columns arrive with the first page only.
  const names = (page.columns ?? []).map((c) => c.name);
  const types = (page.columns ?? []).map((c) => c.type);
  let cursor = page.cursor;
  let pages = 1;
  try {
    yield { names, types, rows: page.rows };
    while (cursor && pages < MAX_PAGES) {
      page = await post(flavor.nextBody(cursor));
      pages++;
      cursor = page.cursor;
      yield { names, types, rows: page.rows };
    }
    state.pageCapHit = cursor !== undefined;
  } finally {
    state.more = cursor !== undefined;
    if (cursor) {
      // Best effort, on a signal of its own (the statement's may have fired): a context left open expires
      // on the engine's own keep-alive anyway.
      await client
        .request({
          method: 'POST',
          path: flavor.closePath,
          body: { cursor },
          signal: AbortSignal.timeout(5_000),
        })
        .catch(() => undefined);
    }
  }
}
