// The OpenSearch engine: SQL over the SQL plugin's endpoint (POST /_plugins/_sql), by host and port only
// (9200). A thin descriptor: the client, pager, catalog, provider, capabilities and dialect are the shared
// search ones of providers/elasticsearch/, driven by OpenSearch's wire shape (flavor.ts). Its grammar has
// OFFSET, so further pages are ordinary statements (`LIMIT n OFFSET m`).

import { quoteStyles } from '../../sql/dialect.js';
import { searchSqlRules } from '../classifier-rules.js';
import { sqlEditor } from '../editor-facts.js';
import {
  SEARCH_DEFAULT_PORT,
  searchCapabilities,
  searchDialect,
  validateSearchDescriptor,
} from '../elasticsearch/search-engine.js';
import type { EngineDescriptor } from '../engine.js';
import { opensearchFlavor } from './flavor.js';

export const opensearchEngine: EngineDescriptor<'opensearch', 'opensearch'> = {
  engine: 'opensearch',
  label: 'OpenSearch',
  editor: sqlEditor(),
  dialect: 'opensearch',
  acceptsConnectionString: false,
  classifier: { sql: searchSqlRules },
  fileBased: false,
  defaultPort: SEARCH_DEFAULT_PORT,
  capabilities: searchCapabilities,
  validate: (conn) => validateSearchDescriptor(conn, opensearchFlavor),
  // Identifiers are backtick-quoted (`logs-2024`); the helpers read MySQL's grammar.
  sqlDialect: searchDialect('opensearch', opensearchFlavor, quoteStyles.backtick, 'mysql'),
  create: async (conn) => (await import('./index.js')).createProvider(conn),
};
