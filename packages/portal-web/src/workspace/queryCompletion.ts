// What the editor completes for a connection (the engine's keywords come with its provider-meta facts): the containers (schemas) from the per-kind
// counts the object tree reads too (same key, one request), and objects looked up per word and columns
// described on demand (editor/objectLookup.ts), cached per mounted query panel.
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CompletionSource } from '../editor/completion';
import { objectLookup } from '../editor/objectLookup';
import { apiPost } from '../lib/api';

export function useQueryCompletion(props: {
  qc: QueryClient;
  connectionKey: string;
  descriptor: Record<string, unknown>;
}): () => Omit<CompletionSource, 'keywords'> {
  const { qc } = props;
  // The containers come from the per-kind counts the object tree reads too (same key, one request).
  const counts = useQuery({
    queryKey: ['objects', props.connectionKey, 'counts'],
    queryFn: () => apiPost('/api/db/objects/counts', { connection: props.descriptor }),
    staleTime: 60_000,
  });
  // One path per container (counts come per kind), worked out when the counts change, not on every render.
  const containerPaths = useMemo(
    () => [...new Map((counts.data?.counts ?? []).map((c) => [c.path.join('\u0000'), c.path])).values()],
    [counts.data],
  );
  const containers = useRef<string[][]>([]);
  containers.current = containerPaths;
  // One lookup per mounted panel: the workspace keys this panel by connection, so its cache is per connection.
  const [lookup] = useState(() =>
    objectLookup({
      list: (body) => apiPost('/api/db/objects/list', { connection: props.descriptor, ...body }),
      describe: (path) =>
        qc.fetchQuery({
          queryKey: ['describe', props.connectionKey, path],
          queryFn: () => apiPost('/api/db/objects/describe', { connection: props.descriptor, path }),
          staleTime: 60_000,
        }),
      containers: () => containers.current,
    }),
  );
  // The current schema's first objects are read when the editor opens, so the first Ctrl-Space is quick.
  useEffect(() => {
    if (counts.data) lookup.objects('').catch(() => undefined);
  }, [counts.data, lookup]);
  return useCallback(
    (): Omit<CompletionSource, 'keywords'> => ({
      schemas: containers.current.map((p) => p[p.length - 1]),
      objects: lookup.objects,
      columns: lookup.columns,
    }),
    [lookup],
  );
}
