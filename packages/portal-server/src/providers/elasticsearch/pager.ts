// Runs one SQL statement on a search engine and follows the engine's cursor: both engines page large
// results (and aggregations) themselves, answering a cursor until the last page. The pager keeps reading
// until it holds one row more than the caller wants (so `truncated` is exact), the cursor ends, or 1000
// pages were read (then the result reports the truncation). A cursor it stops following is closed so the
// engine frees its search context. The statement goes out without a trailing semicolon (neither engine's
// grammar takes one).
import { queryError } from '../errors.js';
import type { SearchClient } from './client.js';
import type { SearchFlavor } from './flavor.js';

/** The most pages of one statement the provider reads (spec: "follows the cursor up to 1000 pages"). */
export const MAX_PAGES = 1000;
/** Rows asked for per page (Elasticsearch's own default fetch size). */
export const MAX_FETCH_SIZE = 1000;

/** The statement as sent: whitespace and trailing semicolons removed. */
export function withoutTrailingSemicolon(sql: string): string {
  return sql.replace(/[\s;]+$/u, '');
}

export interface PagedRead {
  names: string[];
  types: string[];
  /** True when the reader stopped before the engine's last page (more rows exist, or the page cap hit). */
  more: boolean;
  /** True when the 1000-page cap stopped the read. */
  pageCapHit: boolean;
}

/**
 * Reads `sql` page by page, handing each page's rows to `onRows` until it returns false (enough rows) or the
 * engine has no more. `onColumns` is called once, with the first page's columns.
 */
export async function readPages(
  client: SearchClient,
  flavor: SearchFlavor,
  sql: string,
  fetchSize: number,
  signal: AbortSignal,
  onRows: (rows: unknown[][]) => boolean,
): Promise<PagedRead> {
  const query = withoutTrailingSemicolon(sql);
  if (query === '') throw queryError('The statement is empty');
  let page = flavor.parsePage(
    await client.request({
      method: 'POST',
      path: flavor.sqlPath,
      body: flavor.firstBody(query, Math.max(1, Math.min(MAX_FETCH_SIZE, fetchSize))),
      signal,
    }),
  );
  const names = (page.columns ?? []).map((c) => c.name);
  const types = (page.columns ?? []).map((c) => c.type);
  let pages = 1;
  let wantMore = onRows(page.rows);
  while (wantMore && page.cursor && pages < MAX_PAGES) {
    page = flavor.parsePage(
      await client.request({
        method: 'POST',
        path: flavor.sqlPath,
        body: flavor.nextBody(page.cursor),
        signal,
      }),
    );
    pages++;
    wantMore = onRows(page.rows);
  }
  const cursor = page.cursor;
  if (cursor) {
    // Best effort: a context left open expires on the engine's own keep-alive anyway.
    await client
      .request({ method: 'POST', path: flavor.closePath, body: { cursor }, signal })
      .catch(() => undefined);
  }
  return { names, types, more: cursor !== undefined, pageCapHit: cursor !== undefined && wantMore };
}
