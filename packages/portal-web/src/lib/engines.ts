// The engines the server runs (`POST /api/db/provider-meta` with an empty body): id, label, dialect, default port,
// file-based flag and capability flags, in the order to offer them. Fetched once per page load (the server's
// engine list does not change while it runs) and shared by every view that asks about an engine.
import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import type { EngineMeta } from './types';

export function useEngines() {
  return useQuery({
    queryKey: ['engines'],
    queryFn: async () =>
      (await api<{ engines: EngineMeta[] }>('/api/db/provider-meta', { body: {} })).engines,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
