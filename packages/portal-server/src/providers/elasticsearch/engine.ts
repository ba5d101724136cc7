// The Elasticsearch engine: SQL over the product's HTTP SQL endpoint (POST /_sql?format=json), reached with
// fetch on port 9200 by host and port only. Read-only: the portal refuses writes before anything is sent
// and the engine's SQL has none. No OFFSET in its grammar, so a second page is refused with that reason.
// The shared search client, pager, catalog and provider live in this folder; OpenSearch reuses them.

import { quoteStyles } from '../../sql/dialect.js';
import { searchSqlRules } from '../classifier-rules.js';
import { sqlEditor } from '../editor-facts.js';
import type { EngineDescriptor } from '../engine.js';
import { elasticsearchFlavor } from './flavor.js';
import {
  SEARCH_DEFAULT_PORT,
  searchCapabilities,
  searchDialect,
  validateSearchDescriptor,
} from './search-engine.js';

export const elasticsearchEngine: EngineDescriptor<'elasticsearch', 'elasticsearch'> = {
  engine: 'elasticsearch',
  label: 'Elasticsearch',
  editor: sqlEditor(),
  dialect: 'elasticsearch',
  acceptsConnectionString: false,
  classifier: { sql: searchSqlRules },
  fileBased: false,
  defaultPort: SEARCH_DEFAULT_PORT,
  capabilities: searchCapabilities,
  validate: (conn) => validateSearchDescriptor(conn, elasticsearchFlavor),
  // Identifiers are double-quoted (index names with dashes: "logs-2024"); the helpers read PostgreSQL's grammar.
  sqlDialect: searchDialect('elasticsearch', elasticsearchFlavor, quoteStyles.double, 'postgresql'),
  create: async (conn) => (await import('./index.js')).createProvider(conn),
};
