// The export rule (policy `exportRoles`; database-portal.md Export: checked first, 403 audited
// `export_not_allowed`): who may export from a datasource. With `exportRoles`, only the roles and people it
// names; without it the environment default — administrators always, users except on a production datasource.
import { listNames } from './approvals.js';
import type { PolicyPrincipal } from './policy.js';

export function mayExport(
  who: PolicyPrincipal,
  ds: { exportRoles?: string[]; environment?: string },
): boolean {
  if (ds.exportRoles) return listNames(ds.exportRoles, who);
  return who.role === 'admin' || ds.environment !== 'production';
}
