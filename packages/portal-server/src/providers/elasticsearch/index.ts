// The Elasticsearch provider: the shared search provider (provider.ts) speaking Elasticsearch SQL's wire
// shape (flavor.ts). Loaded by the engine descriptor on first use.
import type { Provider, ResolvedConnection } from '../types.js';
import { elasticsearchFlavor } from './flavor.js';
import { createSearchProvider } from './provider.js';

export async function createProvider(conn: ResolvedConnection): Promise<Provider> {
  return createSearchProvider(conn, elasticsearchFlavor);
}
