// Where the person's own connections live. `GET /api/storage/config` decides: with `serverMode: false` the
// browser keeps them (localStorage, one list per signed-in person); otherwise the server storage routes
// (`/api/storage/connections`) keep them, credentials sealed and never sent back. Because the execution
// routes take the descriptor from the request, a password typed in this tab is also kept for the tab's
// lifetime (sessionStorage) and added to the descriptor when a statement runs.
import { useQuery } from '@tanstack/react-query';
import { type Answer, api, apiGet } from './api';
import type { Connection } from './types';

export type StorageConfig = Answer<'/api/storage/config'>;

export function useStorageConfig() {
  return useQuery({
    queryKey: ['storage-config'],
    queryFn: () => apiGet('/api/storage/config'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useManagedConnections() {
  return useQuery({
    queryKey: ['managed-connections'],
    queryFn: async () =>
      (await apiGet('/api/connections/managed')).connections.map((c) => ({
        ...c,
        managed: true,
      })) as Connection[],
  });
}

const localKey = (username: string) => `portal.connections.v1:${username}`;
const secretKey = (username: string) => `portal.connection-secrets.v1:${username}`;

function readJson<T>(storage: Storage, key: string, fallback: T): T {
  try {
    const raw = storage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

function tabSecrets(username: string): Record<string, string> {
  return readJson<Record<string, string>>(window.sessionStorage, secretKey(username), {});
}

function rememberSecret(username: string, id: string, password: string | undefined): void {
  const all = tabSecrets(username);
  if (password) all[id] = password;
  else delete all[id];
  window.sessionStorage.setItem(secretKey(username), JSON.stringify(all));
}

export function ownConnectionsKey(username: string, serverMode: boolean) {
  return ['own-connections', username, serverMode] as const;
}

export async function listOwnConnections(username: string, serverMode: boolean): Promise<Connection[]> {
  if (!serverMode) return readJson<Connection[]>(window.localStorage, localKey(username), []);
  const { connections } = await apiGet('/api/storage/connections');
  return connections as Connection[];
}

export function useOwnConnections(username: string, serverMode: boolean | undefined) {
  return useQuery({
    queryKey: ownConnectionsKey(username, serverMode ?? false),
    queryFn: () => listOwnConnections(username, serverMode ?? false),
    enabled: serverMode !== undefined,
  });
}

export async function saveOwnConnection(
  username: string,
  serverMode: boolean,
  connection: Connection,
): Promise<void> {
  if (!serverMode) {
    const list = readJson<Connection[]>(window.localStorage, localKey(username), []);
    const next = [...list.filter((c) => c.id !== connection.id), connection];
    window.localStorage.setItem(localKey(username), JSON.stringify(next));
    return;
  }
  const { password, ...rest } = connection;
  // An empty password field on an edit keeps the sealed one (the route keeps a credential left out).
  await api(`/api/storage/connections/${encodeURIComponent(connection.id)}`, {
    method: 'PUT',
    body: password ? { ...rest, password } : rest,
  });
  if (password) rememberSecret(username, connection.id, password);
}

export async function deleteOwnConnection(username: string, serverMode: boolean, id: string): Promise<void> {
  rememberSecret(username, id, undefined);
  if (!serverMode) {
    const list = readJson<Connection[]>(window.localStorage, localKey(username), []);
    window.localStorage.setItem(localKey(username), JSON.stringify(list.filter((c) => c.id !== id)));
    return;
  }
  await api(`/api/storage/connections/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

const UI_ONLY = ['storedSecrets', 'createdAt', 'updatedAt', 'available', 'unavailableReason', 'canExport'];

/**
 * The descriptor sent with a request. A managed datasource is named by id only: the server runs it with its
 * own definition and ignores the rest. An own connection goes as stored, plus the tab's remembered password.
 */
export function requestDescriptor(c: Connection, username: string): Record<string, unknown> {
  if (c.managed) return { id: c.id, name: c.name, type: c.type };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c)) if (!UI_ONLY.includes(k) && v !== undefined && v !== '') out[k] = v;
  if (!out.password) {
    const remembered = tabSecrets(username)[c.id];
    if (remembered) out.password = remembered;
  }
  return out;
}

/** A fresh id that cannot collide with a managed datasource id (those match [a-z0-9-]; this has a dot). */
export function newConnectionId(): string {
  const bytes = new Uint8Array(9);
  window.crypto.getRandomValues(bytes);
  return `c.${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
