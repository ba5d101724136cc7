// The states every read shows instead of a blank area, in one place: loading, the error with a retry, an
// empty state when the answer holds nothing, else the content drawn from the data. Pages and tabs wrap a
// TanStack query in it rather than repeating the same four branches.
import { EmptyState, ErrorState, LoadingState } from '@app/web-kit';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Paged } from '../lib/paged-list';
import { Pager } from './ui';

export function QueryView<T>(props: {
  query: UseQueryResult<T>;
  /** When the data holds nothing to show; `empty` is drawn instead of the content. */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  errorTitle?: string;
  children: (data: T) => ReactNode;
}) {
  const { query: q } = props;
  if (q.isLoading) return <LoadingState />;
  const error = q.error ? (
    <ErrorState error={q.error} title={props.errorTitle} onRetry={() => q.refetch()} />
  ) : null;
  // A failed refresh of a list already shown keeps the list under the error (polled pages).
  if (q.data === undefined) return error ?? <LoadingState />;
  return (
    <>
      {error}
      {props.isEmpty?.(q.data)
        ? (props.empty ?? <EmptyState title="Nothing here yet." />)
        : props.children(q.data)}
    </>
  );
}

/** A QueryView of one page of a list, with the pager under the content. */
export function PagedQueryView<T extends Paged>(props: {
  query: UseQueryResult<T>;
  isEmpty: (data: T) => boolean;
  empty: ReactNode;
  onPage(offset: number): void;
  children: (data: T) => ReactNode;
}) {
  return (
    <QueryView query={props.query} isEmpty={props.isEmpty} empty={props.empty}>
      {(d) => (
        <>
          {props.children(d)}
          <Pager total={d.total} limit={d.limit} offset={d.offset} onChange={props.onPage} />
        </>
      )}
    </QueryView>
  );
}
