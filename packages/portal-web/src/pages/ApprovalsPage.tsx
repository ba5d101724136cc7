// Approvals: the requests the person may review (`GET /api/approvals`: pending first, then decisions) and
// their own requests (`?scope=mine`). A reviewer approves with an approval window (1..240 minutes) or
// rejects, with an optional note (`POST /api/approvals/{id}/decision`).
import { Button, EmptyState, ErrorState, LoadingState, Tabs } from '@app/web-kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { WithdrawButton } from '../governance/WithdrawButton';
import { ApiError, api, apiGet, errorText } from '../lib/api';
import { useLocation } from '../lib/router';
import type { Approval, SessionUser } from '../lib/types';

function when(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

function DecisionForm({ approval, onDecided }: { approval: Approval; onDecided: () => void }) {
  const [minutes, setMinutes] = useState('15');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const decide = async (decision: 'approve' | 'reject', e?: FormEvent) => {
    e?.preventDefault();
    const windowMinutes = Number(minutes);
    if (
      decision === 'approve' &&
      (!Number.isInteger(windowMinutes) || windowMinutes < 1 || windowMinutes > 240)
    ) {
      setProblem('The approval window is a whole number of minutes from 1 to 240.');
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await api(`/api/approvals/${encodeURIComponent(approval.id)}/decision`, {
        body: {
          decision,
          ...(decision === 'approve' ? { windowMinutes } : {}),
          ...(note.trim() ? { note: note.trim() } : {}),
        },
      });
      onDecided();
    } catch (err) {
      setProblem(errorText(err));
      setBusy(false);
    }
  };

  return (
    <form
      className="decision"
      onSubmit={(e) => decide('approve', e)}
      aria-label={`Decide request ${approval.id}`}
    >
      <label>
        <span>Window (minutes)</span>
        <input
          type="number"
          min={1}
          max={240}
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
          aria-label="Approval window in minutes"
        />
      </label>
      <label className="grow">
        <span>Note</span>
        <input value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} aria-label="Note" />
      </label>
      <Button type="submit" variant="success" disabled={busy}>
        Approve
      </Button>
      <Button variant="danger" disabled={busy} onClick={() => decide('reject')}>
        Reject
      </Button>
      {problem && (
        <p className="error-text small" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

function ApprovalCard(props: {
  a: Approval;
  me: SessionUser;
  review: boolean;
  focused: boolean;
  onDecided: () => void;
}) {
  const { a } = props;
  const mine = a.requester.toLowerCase() === props.me.username.toLowerCase();
  return (
    <article
      id={`approval-${a.id}`}
      className={`approval card${props.focused ? ' focused' : ''}`}
      aria-label={`Request ${a.id}`}
    >
      <header>
        <span className={`badge status-${a.status}`}>{a.status}</span>
        <strong>{a.datasourceName ?? a.datasourceId}</strong>
        {a.guardrail && <span className="badge guardrail">{a.guardrail}</span>}
        <span className="muted small">
          by {a.requester} · {when(a.requestedAt)} · {a.route}
        </span>
        <span className="spacer" />
        <span className="mono muted small">{a.id}</span>
      </header>
      <pre className="statement">{a.statement}</pre>
      <dl className="facts inline">
        {a.ticket && (
          <>
            <dt>Ticket</dt>
            <dd>{a.ticket}</dd>
          </>
        )}
        {a.approvals && a.approvals.length > 0 && (
          <>
            <dt>Approved by</dt>
            <dd>{a.approvals.map((x) => x.reviewer).join(', ')}</dd>
          </>
        )}
        {a.reviewer && (
          <>
            <dt>Decided by</dt>
            <dd>
              {a.reviewer} · {when(a.reviewedAt)}
            </dd>
          </>
        )}
        {a.windowUntil && (
          <>
            <dt>Window until</dt>
            <dd>{when(a.windowUntil)}</dd>
          </>
        )}
        {a.note && (
          <>
            <dt>Note</dt>
            <dd>{a.note}</dd>
          </>
        )}
      </dl>
      {props.review && a.status === 'pending' && !mine && (
        <DecisionForm approval={a} onDecided={props.onDecided} />
      )}
      {props.review && a.status === 'pending' && mine && (
        <p className="muted small">You asked for this one; another reviewer decides.</p>
      )}
      {a.status === 'pending' && mine && <WithdrawButton approval={a} onDone={props.onDecided} />}
    </article>
  );
}

export function ApprovalsPage({ user }: { user: SessionUser }) {
  const qc = useQueryClient();
  const { hash, search } = useLocation();
  // The workspace's "approval required" notice links here with ?scope=mine (the requester's own list).
  const [scope, setScope] = useState<'review' | 'mine'>(search.get('scope') === 'mine' ? 'mine' : 'review');
  const list = useQuery({
    queryKey: ['approvals', scope],
    queryFn: () => apiGet('/api/approvals', { query: scope === 'mine' ? { scope: 'mine' } : {} }),
    refetchInterval: 15_000,
    staleTime: 0,
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['approvals'] });

  useEffect(() => {
    if (!hash || !list.data) return;
    document.getElementById(`approval-${hash}`)?.scrollIntoView({ block: 'center' });
  }, [hash, list.data]);

  const unavailable = list.error instanceof ApiError && list.error.code === 'STORAGE_UNAVAILABLE';
  // An administrator reviews every datasource, so the server's review list holds their own requests too:
  // those wait for someone else and live under "My requests".
  const me = user.username.toLowerCase();
  const approvals = (list.data?.approvals ?? []).filter(
    (a) => scope === 'mine' || a.requester.toLowerCase() !== me,
  );
  return (
    <div className="page-body">
      <div className="page-head">
        <h1>Approvals</h1>
        <Tabs
          items={[
            { id: 'review', label: 'To review' },
            { id: 'mine', label: 'My requests' },
          ]}
          value={scope}
          onChange={(id) => setScope(id as typeof scope)}
          label="Which requests"
        />
        <span className="spacer" />
        <Button size="sm" onClick={refresh}>
          Refresh
        </Button>
      </div>
      {list.isPending && <LoadingState label="Loading requests…" />}
      {unavailable && (
        <p className="notice">
          Approvals need server storage (STORAGE_PROVIDER sqlite or postgres) on this portal.
        </p>
      )}
      {list.isError && !unavailable && (
        <ErrorState error={list.error} title="The requests could not be read" onRetry={refresh} />
      )}
      {list.data && approvals.length === 0 && (
        <EmptyState
          title={
            scope === 'review' ? 'Nothing waits for your review.' : 'You have not asked for any approval.'
          }
        />
      )}
      <div className="approval-list">
        {approvals.map((a) => (
          <ApprovalCard
            key={a.id}
            a={a}
            me={user}
            review={scope === 'review'}
            focused={hash === a.id}
            onDecided={refresh}
          />
        ))}
      </div>
    </div>
  );
}
