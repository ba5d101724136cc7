// What a browser may learn about a managed datasource: a connection descriptor marked `managed: true` with
// the per-session `readOnly`/`canExport` decisions and the policy a user needs to plan a change — never a
// credential (password, agent password, connection string, SSL key material, tunnel secrets, even the
// database user) and never `objectRules`, which would reveal what is hidden.
import type { DatasourcePolicy, ManagedDatasource, ManagedEntry, SessionRole } from './types.js';

export interface Viewer {
  role: SessionRole;
  username: string;
}

/** Connection fields safe to show (no credentials). */
const SHOWN_FIELDS = [
  'host',
  'port',
  'database',
  'schema',
  'sshProfile',
  'serviceName',
  'instanceName',
  'localDataCenter',
  'authSource',
  'region',
  'workgroup',
  'queryTimeout',
  'skipObjectScan',
  'environment',
  'color',
  'group',
  'members',
] as const;

/** Whether `viewer` is named by a list of role names, user names or emails. */
export function listAdmits(list: readonly string[], viewer: Viewer): boolean {
  const name = viewer.username.toLowerCase();
  return list.some((entry) => {
    const e = entry.toLowerCase();
    return e === viewer.role || e === name;
  });
}

/**
 * May `viewer` export from this datasource? With `exportRoles` set, only the roles and people it names;
 * without it, the environment default: administrators always, users except on a production datasource.
 */
export function canExport(ds: ManagedDatasource, viewer: Viewer): boolean {
  if (ds.policy.exportRoles) return listAdmits(ds.policy.exportRoles, viewer);
  return viewer.role === 'admin' || ds.connection.environment !== 'production';
}

type PublicPolicy = Omit<DatasourcePolicy, 'objectRules' | 'agent'>;

function publicPolicy(policy: DatasourcePolicy): PublicPolicy {
  const { objectRules: _hidden, agent: _agent, ...rest } = policy;
  return rest;
}

export function toPublicConnection(entry: ManagedEntry, viewer: Viewer): Record<string, unknown> {
  const ds = entry.datasource;
  const base: Record<string, unknown> = { id: ds.id, name: ds.name, type: ds.type, managed: true };
  if (!entry.available) {
    base.available = false;
    // The reason names environment variables, which is for operators only.
    if (viewer.role === 'admin') base.unavailableReason = entry.datasource.reason;
    return base;
  }
  const full = entry.datasource;
  base.available = true;
  for (const key of SHOWN_FIELDS) {
    const value = full.connection[key];
    if (value !== undefined) base[key] = value;
  }
  if (full.connection.ssl !== undefined) base.ssl = full.connection.ssl !== false;
  base.readOnly = full.policy.readOnly;
  base.requireTicket = full.policy.requireTicket;
  base.approvalsRequired = full.policy.approvalsRequired;
  if (full.policy.exportRoles) base.exportRoles = full.policy.exportRoles;
  base.canExport = canExport(full, viewer);
  base.policy = publicPolicy(full.policy);
  return base;
}
