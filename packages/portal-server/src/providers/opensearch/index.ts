// The OpenSearch provider: the shared search provider of providers/elasticsearch/ speaking the OpenSearch
// SQL plugin's wire shape (flavor.ts). Loaded by the engine descriptor on first use.
import { createSearchProvider } from '../elasticsearch/provider.js';
import type { Provider, ResolvedConnection } from '../types.js';
import { opensearchFlavor } from './flavor.js';

export async function createProvider(conn: ResolvedConnection): Promise<Provider> {
  return createSearchProvider(conn, opensearchFlavor);
}
