// Who may decide a manual gate (docs/ci-decisions.md, "Gate approvers"): the gate's `approval.approvers`
// (user names or e-mail addresses, any case) and `approval.approver_groups` (gocdnext's key: `maintainer`
// admits maintainers and admins, `admin` admins, any other name the members of that approver group an admin
// keeps, store/approver-groups.ts), either admitting; and
// nobody approves a gate of a run they triggered unless `approval.allow_self_approval: true` (GitHub's
// `prevent_self_review`). Pure: the caller passes the decider and the run's `triggered_by`.
import type { ApprovalSpec } from '../domain/index.js';
import type { ApproverGroups } from '../store/approver-groups.js';

/** `approver_groups` entries that are roles of this control plane, not groups. */
const ROLE_GROUPS = new Set(['maintainer', 'admin']);

/** Whether the gate names a group (not a role), so the decision needs the groups' members. */
export function namesGroups(spec: ApprovalSpec | undefined): boolean {
  return (spec?.approver_groups ?? []).some((g) => !ROLE_GROUPS.has(g));
}

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
  const roles = (spec?.approver_groups ?? []).map((g) => (ROLE_GROUPS.has(g) ? `role ${g}` : `group ${g}`));
  const all = [...names, ...roles];
  if (all.length === 0) return null;
  return all.length === 1 ? all[0] : `${all.slice(0, -1).join(', ')} or ${all.at(-1)}`;
}

/** Whether a list of user names / e-mail addresses (any case) names the decider. */
function names(list: readonly string[], d: Decider): boolean {
  if (d.anonymous) return false;
  const lower = list.map((a) => a.toLowerCase());
  return (
    lower.includes(d.username.toLowerCase()) || (d.email !== null && lower.includes(d.email.toLowerCase()))
  );
}

function listed(spec: ApprovalSpec, d: Decider, groups: ApproverGroups): boolean {
  if (names(spec.approvers ?? [], d)) return true;
  return (spec.approver_groups ?? []).some((g) => {
    if (g === 'admin') return d.role === 'admin';
    if (g === 'maintainer') return d.role === 'maintainer' || d.role === 'admin';
    return names(groups.get(g) ?? [], d);
  });
}

/** Null when `d` may take `decision` on gate `gate`; otherwise why not, in one sentence (a 403 message). */
export function refuseDecision(
  gate: string,
  spec: ApprovalSpec | undefined,
  decision: 'approve' | 'reject',
  d: Decider,
  triggeredBy: string,
  groups: ApproverGroups = new Map(),
): string | null {
  const who = describeApprovers(spec);
  if (spec && who !== null && !listed(spec, d, groups)) {
    const undefinedGroups = (spec.approver_groups ?? []).filter((g) => !ROLE_GROUPS.has(g) && !groups.has(g));
    const hint =
      undefinedGroups.length > 0
        ? ` (approver group ${undefinedGroups.join(', ')} is not defined: an admin sets its members with PUT /api/v1/admin/approver-groups/{name})`
        : '';
    return `only ${who} may ${decision} gate "${gate}" (approval.approvers / approval.approver_groups); ${d.username} (${d.role}) is not one of them${hint}`;
  }
  if (decision === 'approve' && spec?.allow_self_approval !== true && triggeredByDecider(triggeredBy, d))
    return `${d.username} triggered this run and may not approve its gate "${gate}" (set approval.allow_self_approval: true to allow it)`;
  return null;
}
