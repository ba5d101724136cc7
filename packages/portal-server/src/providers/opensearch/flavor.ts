// OpenSearch's SQL plugin on the wire (the shared search client of providers/elasticsearch/ speaks it):
// `POST /_plugins/_sql` answers the JDBC shape `{schema: [{name, alias?, type}], datarows, total, size,
// status, cursor?}`; later pages `POST /_plugins/_sql {cursor}` answer `{datarows, cursor?}`; a cursor the
// provider stops following is freed with `POST /_plugins/_sql/close {cursor}`. The grammar has
// `LIMIT n OFFSET m`, so the portal's next-page requests are ordinary statements here (sent without
// fetch_size: the plugin pages only basic queries, see `firstBody`).

import type { SearchFlavor } from '../elasticsearch/flavor.js';
import { queryError } from '../errors.js';

/** A statement ending in `LIMIT n`, `LIMIT n OFFSET m` or `LIMIT m, n`. */
const ENDS_WITH_LIMIT = /\bLIMIT\s+\d+(?:\s*,\s*\d+|\s+OFFSET\s+\d+)?\s*$/i;

export const opensearchFlavor: SearchFlavor = {
  engine: 'opensearch',
  product: 'OpenSearch',
  sqlPath: '/_plugins/_sql?format=jdbc',
  closePath: '/_plugins/_sql/close',
  offsetSupported: true,
  distribution: 'opensearch',
  // The plugin's cursor pagination covers basic queries only: a statement with LIMIT/OFFSET asked with
  // fetch_size falls back to the legacy engine. Such a statement (every page the portal limits) goes out
  // without fetch_size and is answered whole; any other is paged by the engine and followed by cursor.
  firstBody: (query, fetchSize) =>
    ENDS_WITH_LIMIT.test(query) ? { query } : { query, fetch_size: fetchSize },
  nextBody: (cursor) => ({ cursor }),
  parsePage(body) {
    const b = (body ?? {}) as { schema?: unknown; datarows?: unknown; cursor?: unknown };
    if (b.datarows !== undefined && (!Array.isArray(b.datarows) || !b.datarows.every(Array.isArray)))
      throw queryError('OpenSearch answered rows that are not arrays');
    if (b.schema !== undefined && !Array.isArray(b.schema))
      throw queryError('OpenSearch answered without a column list');
    const columns = (b.schema as Array<{ name?: unknown; alias?: unknown; type?: unknown }> | undefined)?.map(
      (c) => ({
        // A column is named by its alias when the statement gave one (`SELECT a AS b`).
        name: String(typeof c.alias === 'string' && c.alias !== '' ? c.alias : (c.name ?? '')),
        type: String(c.type ?? 'unknown'),
      }),
    );
    const cursor = typeof b.cursor === 'string' && b.cursor !== '' ? b.cursor : undefined;
    return {
      ...(columns ? { columns } : {}),
      rows: (b.datarows as unknown[][] | undefined) ?? [],
      ...(cursor ? { cursor } : {}),
    };
  },
};
