// Validation of a connection descriptor before anything opens: the engine must be known, `queryTimeout`
// within 1..2147483647 ms (default 60000), and an embedded engine's file path must stay inside the portal's
// folder for embedded files unless the caller is privileged (an administrator or a managed datasource).
import { isAbsolute, relative, resolve } from 'node:path';
import { configError } from './errors.js';
import type { ConnectionDescriptor, ResolvedConnection } from './types.js';

export const DEFAULT_QUERY_TIMEOUT_MS = 60_000;
export const MAX_QUERY_TIMEOUT_MS = 2_147_483_647;
export const CONNECT_TIMEOUT_MS = 10_000;

export function resolveTimeouts(
  conn: ConnectionDescriptor,
): Pick<ResolvedConnection, 'queryTimeoutMs' | 'connectTimeoutMs'> {
  const t = conn.queryTimeout;
  if (t !== undefined && t !== null) {
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 1 || t > MAX_QUERY_TIMEOUT_MS) {
      throw configError(
        `queryTimeout must be an integer number of milliseconds between 1 and ${MAX_QUERY_TIMEOUT_MS}`,
      );
    }
  }
  return { queryTimeoutMs: t ?? DEFAULT_QUERY_TIMEOUT_MS, connectTimeoutMs: CONNECT_TIMEOUT_MS };
}

export const IN_MEMORY = ':memory:';

/**
 * Where an embedded engine's file lives. Relative paths resolve inside `embeddedDir`; an absolute path or one
 * escaping the folder is allowed only to a privileged caller, so a user cannot open the portal's own storage
 * or another file on the server.
 */
export function embeddedPath(database: string | undefined, embeddedDir: string, privileged: boolean): string {
  const raw = (database ?? '').trim();
  if (raw === '') throw configError('An embedded engine needs `database`: a file path or :memory:');
  if (raw === IN_MEMORY) return IN_MEMORY;
  const path = raw.startsWith('file:') ? raw.slice(5) : raw;
  const full = resolve(embeddedDir, path);
  const rel = relative(embeddedDir, full);
  const inside = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  if (!inside && !privileged) {
    throw configError(
      `The file ${raw} is outside the portal's folder for embedded databases; use a path relative to it`,
    );
  }
  return full;
}
