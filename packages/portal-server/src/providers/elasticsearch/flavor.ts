// The two search engines speak the same idea (SQL over an HTTP endpoint, results paged by an opaque cursor)
// with different wire shapes. A `SearchFlavor` is everything that differs: the endpoint paths, the request
// bodies, how a page of results reads, how an error body reads, and whether OFFSET exists. The shared
// client, pager, catalog and provider of this folder take a flavor; providers/opensearch/ holds the other.
import { queryError } from '../errors.js';

export type SearchEngineId = 'elasticsearch' | 'opensearch';

/** One page of an SQL answer: the columns arrive on the first page only (both engines omit them later). */
export interface SqlPage {
  columns?: Array<{ name: string; type: string }>;
  rows: unknown[][];
  cursor?: string;
}

export interface SearchFlavor {
  readonly engine: SearchEngineId;
  /** The product's name in messages. */
  readonly product: string;
  /** POST path of the SQL endpoint (JSON answers). */
  readonly sqlPath: string;
  /** POST path that frees a cursor the provider stops following. */
  readonly closePath: string;
  /** False where the SQL grammar has no OFFSET: a second page cannot be asked for. */
  readonly offsetSupported: boolean;
  /** `version.distribution` the server's root answer carries (`undefined`: none, as Elasticsearch). */
  readonly distribution: string | undefined;
  /** The first request of a statement. */
  firstBody(query: string, fetchSize: number): Record<string, unknown>;
  /** The request for the page after `cursor`. */
  nextBody(cursor: string): Record<string, unknown>;
  /** Reads one page of the endpoint's answer. */
  parsePage(body: unknown): SqlPage;
}

/** An engine error body `{error: {type, reason, details?}, status}` as one message (or undefined). */
export function errorMessage(body: unknown): { type?: string; message: string } | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const e = (body as { error?: unknown }).error;
  if (typeof e === 'string') return { message: e };
  if (!e || typeof e !== 'object') return undefined;
  const { type, reason, details } = e as { type?: unknown; reason?: unknown; details?: unknown };
  const parts = [reason, details].filter((p): p is string => typeof p === 'string' && p !== '');
  if (parts.length === 0) return undefined;
  return { ...(typeof type === 'string' ? { type } : {}), message: parts.join(': ') };
}

function columnList(raw: unknown, product: string): Array<{ name: string; type: string }> {
  if (!Array.isArray(raw)) throw queryError(`${product} answered without a column list`);
  return raw.map((c) => {
    const o = c as { name?: unknown; type?: unknown };
    return { name: String(o.name ?? ''), type: String(o.type ?? 'unknown') };
  });
}

function rowList(raw: unknown, product: string): unknown[][] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || !raw.every(Array.isArray))
    throw queryError(`${product} answered rows that are not arrays`);
  return raw as unknown[][];
}

const cursorOf = (raw: unknown) => (typeof raw === 'string' && raw !== '' ? raw : undefined);

/**
 * Elasticsearch SQL (`POST /_sql?format=json`): `{columns: [{name, type}], rows, cursor?}`, later pages
 * `{rows, cursor?}`; `POST /_sql/close {cursor}`. Its grammar has `LIMIT n` and no OFFSET, so the portal
 * cannot ask for a second page of a statement.
 */
export const elasticsearchFlavor: SearchFlavor = {
  engine: 'elasticsearch',
  product: 'Elasticsearch',
  sqlPath: '/_sql?format=json',
  closePath: '/_sql/close',
  offsetSupported: false,
  distribution: undefined,
  firstBody: (query, fetchSize) => ({ query, fetch_size: fetchSize }),
  nextBody: (cursor) => ({ cursor }),
  parsePage(body) {
    const b = (body ?? {}) as { columns?: unknown; rows?: unknown; cursor?: unknown };
    const cursor = cursorOf(b.cursor);
    return {
      ...(b.columns !== undefined ? { columns: columnList(b.columns, 'Elasticsearch') } : {}),
      rows: rowList(b.rows, 'Elasticsearch'),
      ...(cursor ? { cursor } : {}),
    };
  },
};
