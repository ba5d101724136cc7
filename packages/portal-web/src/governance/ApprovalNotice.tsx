// A held write, made visible: the pending request with its live status (read again every few seconds while
// it waits), who approved so far, and — once a reviewer approves — the same text run again automatically
// inside the approval window, which is exactly what the server admits.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiGet } from '../lib/api';
import { Link } from '../lib/router';
import type { Approval } from '../lib/types';
import { WithdrawButton } from './WithdrawButton';

export function ApprovalNotice(props: {
  approval: Approval;
  message: string;
  guardrail?: string;
  approvalsRequired?: number;
  onApproved: () => void;
}) {
  const live = useQuery({
    queryKey: ['approval', props.approval.id],
    queryFn: () => apiGet('/api/approvals/{id}', { params: { id: props.approval.id } }),
    initialData: props.approval,
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? 2500 : false),
    staleTime: 0,
  });
  const a = live.data ?? props.approval;
  const ran = useRef(false);
  useEffect(() => {
    if (a.status === 'approved' && !ran.current) {
      ran.current = true;
      props.onApproved();
    }
  }, [a.status, props.onApproved]);
  const guardrail = props.guardrail ?? a.guardrail;
  return (
    <div className="alert alert-warn" role="alert" aria-label="Approval required">
      <strong>{a.status === 'pending' ? 'Waiting for approval' : `Request ${a.status}`}</strong>
      <p>{props.message}</p>
      <dl className="facts">
        <dt>Request</dt>
        <dd className="mono" data-testid="approval-id">
          {a.id}
        </dd>
        <dt>Status</dt>
        <dd>
          <span className={`badge status-${a.status}`} data-testid="approval-status">
            {a.status}
          </span>
          {a.status === 'pending' && <span className="muted small"> · checking live</span>}
        </dd>
        {guardrail && (
          <>
            <dt>Guardrail</dt>
            <dd>
              <span className="badge guardrail">{guardrail.replaceAll('_', ' ')}</span>
            </dd>
          </>
        )}
        {props.approvalsRequired === 2 && (
          <>
            <dt>Reviewers</dt>
            <dd>{(a.approvals ?? []).length} of 2 approved</dd>
          </>
        )}
        {a.reviewer && (
          <>
            <dt>Decided by</dt>
            <dd>{a.reviewer}</dd>
          </>
        )}
        <dt>Datasource</dt>
        <dd>{a.datasourceName ?? a.datasourceId}</dd>
      </dl>
      {a.status === 'pending' && (
        <p>
          A reviewer decides on the <Link href={`/approvals#${a.id}`}>approvals page</Link>. This page runs
          the statement as soon as it is approved; keep the text unchanged.
        </p>
      )}
      {a.status === 'approved' && <p>Approved — the statement was run again; its result is below.</p>}
      {a.status === 'rejected' && (
        <p>A reviewer rejected the request{a.note ? `: ${a.note}` : ''}. Nothing ran.</p>
      )}
      {a.status === 'expired' && <p>The request expired before anyone decided. Run it again to ask anew.</p>}
      {a.status === 'withdrawn' && <p>You withdrew the request. Nothing ran; run it again to ask anew.</p>}
      {a.status === 'pending' && <WithdrawButton approval={a} onDone={() => void live.refetch()} />}
    </div>
  );
}
