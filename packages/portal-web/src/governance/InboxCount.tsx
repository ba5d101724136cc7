// The approvals inbox count next to "Approvals" in the top bar: requests waiting for this person's decision
// (pending, asked by someone else), read every 20 s. Nothing shows when none wait or storage is off.
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../lib/api';

export function InboxCount({ username }: { username: string }) {
  const inbox = useQuery({
    queryKey: ['approvals', 'review', 'count'],
    queryFn: () => apiGet('/api/approvals'),
    refetchInterval: 20_000,
    retry: false,
  });
  const waiting = (inbox.data?.approvals ?? []).filter(
    (a) => a.status === 'pending' && a.requester.toLowerCase() !== username.toLowerCase(),
  ).length;
  if (waiting === 0) return null;
  return (
    <span
      className="inbox-count"
      data-testid="inbox-count"
      title={`${waiting} request(s) wait for your review`}
    >
      {waiting}
    </span>
  );
}
