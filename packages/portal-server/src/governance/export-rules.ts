// The export rule (policy `exportRoles`; database-portal.md Export: checked first, 403 audited
// `export_not_allowed`): who may export from a datasource. With `exportRoles`, only the roles and people it
// names; without it the environment default — administrators always, users except on a production datasource.
// And what may be exported: a statement the engine's allowlist classifies as a read that answers rows.

import type { Principal } from '../auth/principal.js';
import { listNames } from './approvals.js';
import type { ScriptClassification } from './classify/index.js';

export function mayExport(who: Principal, ds: { exportRoles?: string[]; environment?: string }): boolean {
  if (ds.exportRoles) return listNames(ds.exportRoles, who);
  return who.role === 'admin' || ds.environment !== 'production';
}

/** Statement types that answer rows (the classifier names ClickHouse's `EXISTS t` a DESCRIBE). */
const ANSWERS_ROWS = new Set(['SELECT', 'VALUES', 'TABLE', 'SHOW', 'DESCRIBE', 'EXPLAIN']);

/** Whether the classifier reads every statement as a read it is sure of (no doubt, no unknown function). */
export function onlyReads(c: ScriptClassification): boolean {
  return c.statements.every((s) => s.kind === 'read' && !s.doubtful);
}

/** A sure read that answers rows: exportable even where the export's own SELECT reader has no grammar. */
export function readAnsweringRows(c: ScriptClassification): boolean {
  return onlyReads(c) && c.statements.every((s) => ANSWERS_ROWS.has(s.statementType));
}
