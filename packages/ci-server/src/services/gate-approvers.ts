// Who may decide a manual gate (docs/ci-decisions.md, "Gate approvers"): the gate's `approval.approvers`
// (user names or e-mail addresses, any case) and `approval.approver_groups` (gocdnext's key, read as this
// control plane's roles: `maintainer` admits maintainers and admins, `admin` admins), either admitting; and
// nobody approves a gate of a run they triggered unless `approval.allow_self_approval: true` (GitHub's
// `prevent_self_review`). Pure: the caller passes the decider and the run's `triggered_by`.
import type { ApprovalSpec } from '../domain/index.js';

export interface Decider {
  username: string;
  /** The caller's role; the open authorizer (authentication off) acts as admin. */
  role: 'viewer' | 'maintainer' | 'admin';
  email: string | null;
  /** Authentication is off: nobody is known, so "who triggered" cannot be compared. */
  anonymous: boolean;
}

const HOST_PREFIX = /^(github|gitlab|bitbucket):/;

/** Whether `triggeredBy` (a user name, or `<host>:<login>` for webhooks) names the decider. */
export function triggeredByDecider(triggeredBy: string, d: Decider): boolean {
  if (d.anonymous) return false;
  const who = triggeredBy.replace(HOST_PREFIX, '').toLowerCase();
  return who === d.username.toLowerCase() || (d.email !== null && who === d.email.toLowerCase());
}

/** Everyone the gate names, for messages and the UI ("alice, b@x.org or role admin"). */
export function describeApprovers(spec: ApprovalSpec | undefined): string | null {
  const names = spec?.approvers ?? [];
  const roles = (spec?.approver_groups ?? []).map((g) => `role ${g}`);
  const all = [...names, ...roles];
  if (all.length === 0) return null;
  return all.length === 1 ? all[0] : `${all.slice(0, -1).join(', ')} or ${all.at(-1)}`;
}

function listed(spec: ApprovalSpec, d: Decider): boolean {
  const names = (spec.approvers ?? []).map((a) => a.toLowerCase());
  if (!d.anonymous && names.includes(d.username.toLowerCase())) return true;
  if (!d.anonymous && d.email !== null && names.includes(d.email.toLowerCase())) return true;
  return (spec.approver_groups ?? []).some((g) =>
    g === 'admin' ? d.role === 'admin' : d.role === 'maintainer' || d.role === 'admin',
  );
}

/** Null when `d` may take `decision` on gate `gate`; otherwise why not, in one sentence (a 403 message). */
export function refuseDecision(
  gate: string,
  spec: ApprovalSpec | undefined,
  decision: 'approve' | 'reject',
  d: Decider,
  triggeredBy: string,
): string | null {
  const who = describeApprovers(spec);
  if (spec && who !== null && !listed(spec, d))
    return `only ${who} may ${decision} gate "${gate}" (approval.approvers / approval.approver_groups); ${d.username} (${d.role}) is not one of them`;
  if (decision === 'approve' && spec?.allow_self_approval !== true && triggeredByDecider(triggeredBy, d))
    return `${d.username} triggered this run and may not approve its gate "${gate}" (set approval.allow_self_approval: true to allow it)`;
  return null;
}
