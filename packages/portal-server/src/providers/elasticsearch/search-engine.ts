// The parts both search-engine descriptors share (providers/elasticsearch/engine.ts and
// providers/opensearch/engine.ts): truthful capability flags (read-only SQL, no plans, DDL, row editing,
// maintenance, transactions or positional params; cancel aborts the HTTP request), descriptor validation
// (host and port only: no connection string) and the SQL dialect (statements split on `;`, comments and
// quoting as both grammars read them, `LIMIT n` appended; OFFSET only where the flavor's grammar has it).
import { defaultSplitterOptions } from 'dbgate-query-splitter';
import type { SqlDialect } from '../../sql/dialect.js';
import { configError, unsupported } from '../errors.js';
import type { Capabilities, ConnectionDescriptor } from '../types.js';
import type { SearchFlavor } from './flavor.js';

/** Elasticsearch's and OpenSearch's HTTP port. Here, not in client.ts, so the engine descriptors (loaded at
 * start) do not pull in undici with the client. */
export const SEARCH_DEFAULT_PORT = 9200;

export const searchCapabilities: Capabilities = {
  supportsExplain: false,
  explainModes: [],
  supportsCreateTable: false,
  supportsInlineRowEdit: false,
  supportsMaintenance: false,
  declaresForeignKeys: false,
  parameterStyle: '?',
  supportsPositionalParams: false,
  // The portal aborts the statement's HTTP request; the engine ends the search of a closed request.
  supportsCancel: true,
  supportsTransactions: false,
  maintenanceOperations: [],
  readOnlyEngine: true,
  sqlExport: false,
};

/** Host and port only: a connection string (or a URL in `host`) is refused. */
export function validateSearchDescriptor(conn: ConnectionDescriptor, flavor: SearchFlavor): void {
  if (typeof conn.connectionString === 'string' && conn.connectionString.trim() !== '')
    throw configError(
      `${flavor.product} connections take host and port only; a connection string is not accepted`,
    );
  if (typeof conn.host !== 'string' || conn.host.trim() === '')
    throw configError(`${flavor.product} needs \`host\` (and \`port\`, 9200 by default)`);
  if (/[/\s]/.test(conn.host) || conn.host.includes('://'))
    throw configError(`${flavor.product} \`host\` is a host name or address, not a URL`);
}

/** The dialect of one flavor: `quote` is its identifier quoting, `parser` the grammar the sql helpers read. */
export function searchDialect<N extends string>(
  name: N,
  flavor: SearchFlavor,
  quote: (id: string) => string,
  parser: string,
): SqlDialect & { readonly name: N } {
  return {
    name,
    splitter: { ...defaultSplitterOptions },
    parser: { kind: 'nsp', database: parser },
    quote,
    limitClause(limit, offset) {
      if (offset > 0 && !flavor.offsetSupported) {
        throw unsupported(
          `${flavor.product} SQL has no OFFSET, so a further page cannot be requested; narrow the statement (WHERE) or raise the row limit`,
        );
      }
      return offset > 0 ? `LIMIT ${limit} OFFSET ${offset}` : `LIMIT ${limit}`;
    },
    transactionControl: (w1) => (w1 === 'BEGIN' || w1 === 'END' ? w1 : null),
  };
}
