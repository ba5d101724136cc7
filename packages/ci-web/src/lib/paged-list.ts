// A paged, filtered list read from the API's `{…, total, limit, offset}` answers: the filters and the offset
// as state (changing a filter goes back to the first page), and the query, which keeps the previous page on
// screen while the next one loads. The webhook and notification histories and the agents page use it.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type Answer, apiGet, type RouteOf } from '../api/client';

export interface Paged {
  total: number;
  limit: number;
  offset: number;
}

/** The GET routes that answer a page. */
type PagedRoute = { [P in RouteOf<'get'>]: Answer<P> extends Paged ? P : never }[RouteOf<'get'>];

export function usePagedList<P extends PagedRoute, F extends Record<string, string>>(options: {
  key: readonly unknown[];
  route: P;
  /** The route's `{name}` placeholders. */
  params?: Record<string, string>;
  limit: number;
  initial: F;
  refetchMs?: number;
}) {
  const [filters, setFilters] = useState<F>(options.initial);
  const [offset, setOffset] = useState(0);
  const setFilter = (name: keyof F, value: string) => {
    setOffset(0);
    setFilters((f) => ({ ...f, [name]: value }));
  };
  // Empty filters are left out of the address (the API reads a missing filter as "all").
  const params = Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, v || undefined]));
  const list = useQuery({
    queryKey: [...options.key, filters, offset],
    queryFn: () =>
      apiGet(options.route, {
        params: options.params,
        query: { ...params, limit: options.limit, offset },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: options.refetchMs,
  });
  return { list, filters, setFilter, setOffset };
}
