// The sessions of a datasource as the engine lists them, with the lock waits marked (who waits, who holds
// others up), and for administrators the two session controls the engine offers: cancel the running
// statement and end the session. Each asks once more in place before it acts; the server decides and audits.
import { Button } from '@app/web-kit';
import { useState } from 'react';
import { errorText } from '../lib/api';
import {
  actionOutcome,
  controlSession,
  duration,
  type LockWait,
  type SessionAction,
  type SessionId,
  type SessionRow,
} from './reading';

const VERB: Record<SessionAction, string> = { cancel: 'Cancel statement', kill: 'End session' };

export function SessionsTable(props: {
  sessions: SessionRow[];
  locks: LockWait[] | undefined;
  descriptor: Record<string, unknown>;
  /** Session controls the engine offers to this person (empty: read-only view). */
  actions: SessionAction[];
  onChanged(): void;
}) {
  const [asking, setAsking] = useState<{ pid: SessionId; action: SessionAction } | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ text: string; failed: boolean } | null>(null);
  const waiting = new Map<SessionId, LockWait>((props.locks ?? []).map((l) => [l.pid, l]));
  const blocking = new Set<SessionId>((props.locks ?? []).flatMap((l) => l.blockedBy));

  const act = async (pid: SessionId, action: SessionAction) => {
    setBusy(true);
    try {
      const result = await controlSession(props.descriptor, action, pid);
      setOutcome({ text: actionOutcome(action, pid, result), failed: false });
      props.onChanged();
    } catch (err) {
      setOutcome({ text: errorText(err), failed: true });
    } finally {
      setBusy(false);
      setAsking(null);
    }
  };

  return (
    <section aria-label="Sessions" className="mon-section">
      <h2>
        Sessions <span className="muted small">({props.sessions.length})</span>
      </h2>
      {outcome && (
        <p
          role={outcome.failed ? 'alert' : 'status'}
          className={outcome.failed ? 'error-text' : 'mon-outcome'}
        >
          {outcome.text}
        </p>
      )}
      {props.sessions.length === 0 ? (
        <p className="muted">No other sessions on this database.</p>
      ) : (
        <div className="grid-wrap">
          <table className="grid" aria-label="Sessions">
            <thead>
              <tr>
                <th>Session</th>
                <th>User</th>
                <th>Database</th>
                <th>State</th>
                <th>Duration</th>
                <th>Statement</th>
                {props.actions.length > 0 && <th>Control</th>}
              </tr>
            </thead>
            <tbody>
              {props.sessions.map((s) => {
                const wait = waiting.get(s.pid);
                return (
                  <tr key={s.pid} aria-label={`Session ${s.pid}`}>
                    <td className="nowrap">
                      {s.pid}
                      {wait && (
                        <span className="badge warn" title={`waits for ${wait.blockedBy.join(', ')}`}>
                          waiting
                        </span>
                      )}
                      {blocking.has(s.pid) && <span className="badge bad">blocking</span>}
                    </td>
                    <td>{s.user}</td>
                    <td>{s.database}</td>
                    <td>{s.state}</td>
                    <td className="nowrap">{duration(s.duration)}</td>
                    <td className="mon-query" title={s.query}>
                      {s.query}
                    </td>
                    {props.actions.length > 0 && (
                      <td className="nowrap">
                        {asking?.pid === s.pid ? (
                          <span className="mon-confirm">
                            <span>
                              {asking.action === 'kill'
                                ? `End session ${s.pid}?`
                                : `Cancel the statement of ${s.pid}?`}
                            </span>
                            <Button
                              size="sm"
                              variant="danger"
                              busy={busy}
                              onClick={() => act(s.pid, asking.action)}
                            >
                              Confirm
                            </Button>
                            <Button size="sm" variant="ghost" disabled={busy} onClick={() => setAsking(null)}>
                              Keep
                            </Button>
                          </span>
                        ) : (
                          props.actions.map((a) => (
                            <Button
                              key={a}
                              size="sm"
                              variant={a === 'kill' ? 'danger' : 'secondary'}
                              aria-label={`${VERB[a]} ${s.pid}`}
                              onClick={() => {
                                setOutcome(null);
                                setAsking({ pid: s.pid, action: a });
                              }}
                            >
                              {VERB[a]}
                            </Button>
                          ))
                        )}
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function LocksTable({ locks }: { locks: LockWait[] }) {
  return (
    <section aria-label="Lock waits" className="mon-section">
      <h2>
        Lock waits <span className="muted small">({locks.length})</span>
      </h2>
      {locks.length === 0 ? (
        <p className="muted">No session waits for a lock.</p>
      ) : (
        <div className="grid-wrap">
          <table className="grid" aria-label="Lock waits">
            <thead>
              <tr>
                <th>Waiting session</th>
                <th>Held up by</th>
                <th>Lock</th>
                <th>Object</th>
                <th>Waiting for</th>
                <th>Statement</th>
              </tr>
            </thead>
            <tbody>
              {locks.map((l) => (
                <tr key={l.pid}>
                  <td>{l.pid}</td>
                  <td data-testid="lock-blockers">{l.blockedBy.join(', ')}</td>
                  <td>{[l.lockType, l.mode].filter(Boolean).join(' · ')}</td>
                  <td>{l.relation}</td>
                  <td className="nowrap">{duration(l.waitingMs)}</td>
                  <td className="mon-query" title={l.query}>
                    {l.query}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
