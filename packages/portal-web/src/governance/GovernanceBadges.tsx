// What the datasource's policy means for the person, at a glance: read-only, write approval (one or two
// reviewers), ticket required, an active or coming freeze window, masked columns, export not allowed.
import type { Connection } from '../lib/types';

interface FreezeWindow {
  from: string;
  to: string;
  reason?: string;
}

function freezeState(windows: unknown): { active?: FreezeWindow; next?: FreezeWindow } {
  if (!Array.isArray(windows)) return {};
  const now = Date.now();
  const list = windows.filter(
    (w): w is FreezeWindow => !!w && typeof w.from === 'string' && typeof w.to === 'string',
  );
  const active = list.find((w) => Date.parse(w.from) <= now && now <= Date.parse(w.to));
  const next = list
    .filter((w) => Date.parse(w.from) > now)
    .sort((a, b) => Date.parse(a.from) - Date.parse(b.from))[0];
  return { active, next };
}

export function GovernanceBadges({ connection: c }: { connection: Connection }) {
  const policy = (c.policy ?? {}) as Record<string, unknown>;
  const readOnly = c.readOnly || policy.readOnly === true;
  const approval = policy.writeApproval === true;
  const reviewers = Number(policy.approvalsRequired ?? c.approvalsRequired ?? 1);
  const ticket = c.requireTicket || policy.requireTicket === true;
  const { active, next } = freezeState(policy.freezeWindows);
  const masking = Array.isArray(policy.masking)
    ? (policy.masking as { column?: string; rule?: string }[])
    : [];
  const guardrails = policy.guardrails !== false && c.managed;
  return (
    <ul className="gov-badges" aria-label="Datasource policy">
      {readOnly && (
        <li className="badge ro" title="Only reads run here; the database itself enforces it">
          read-only
        </li>
      )}
      {approval && !readOnly && (
        <li className="badge approval" title="A write waits for a reviewer before it runs">
          writes need {reviewers === 2 ? 'two approvals' : 'approval'}
        </li>
      )}
      {ticket && (
        <li className="badge ticket" title="Enter a change ticket in the Ticket field for writes">
          ticket required
        </li>
      )}
      {active && (
        <li className="badge freeze active" title={`Until ${new Date(active.to).toLocaleString()}`}>
          frozen{active.reason ? `: ${active.reason}` : ''}
        </li>
      )}
      {!active && next && (
        <li
          className="badge freeze"
          title={`${new Date(next.from).toLocaleString()} – ${new Date(next.to).toLocaleString()}`}
        >
          freeze from {new Date(next.from).toLocaleDateString()}
        </li>
      )}
      {masking.length > 0 && (
        <li className="badge masked" title={masking.map((m) => `${m.column} (${m.rule})`).join(', ')}>
          {masking.length} masked column{masking.length === 1 ? '' : 's'}
        </li>
      )}
      {guardrails && !readOnly && (
        <li
          className="badge guardrail"
          title="DELETE, UPDATE without WHERE, DROP, TRUNCATE and GRANT wait for review"
        >
          guardrails
        </li>
      )}
      {c.canExport === false && (
        <li className="badge" title="The export rule of this datasource does not include you">
          no export
        </li>
      )}
    </ul>
  );
}
