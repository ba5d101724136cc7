// The export rule (policy `exportRoles`; database-portal.md Export: checked first, 403 audited
// `export_not_allowed`): who may export from a datasource. With `exportRoles`, only the roles and people it
// names; without it the environment default — administrators always, users except on a production datasource.

import type { Principal } from '../auth/principal.js';
import { listNames } from './approvals.js';

export function mayExport(who: Principal, ds: { exportRoles?: string[]; environment?: string }): boolean {
  if (ds.exportRoles) return listNames(ds.exportRoles, who);
  return who.role === 'admin' || ds.environment !== 'production';
}
