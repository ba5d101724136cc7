// Forward-only schema migrations of the portal's store, applied at start on SQLite and PostgreSQL alike.
// One file per migration; append new entries in name order and never edit one that has shipped.
import type { Migrations } from '@app/kit';
import { m0001MetaConnectionsQueries } from './0001_meta_connections_queries.js';
import { m0002ApprovalsServiceTokens } from './0002_approvals_service_tokens.js';
import { m0003AuditJobs } from './0003_audit_jobs.js';
import { m0004BotRequests } from './0004_bot_requests.js';
import { m0004SessionState } from './0004_session_state.js';
import { m0005SeedRuns } from './0005_seed_runs.js';
import { m0006ApprovalDryRun } from './0006_approval_dry_run.js';

export const portalMigrations: Migrations = {
  '0001_meta_connections_queries': m0001MetaConnectionsQueries,
  '0002_approvals_service_tokens': m0002ApprovalsServiceTokens,
  '0003_audit_jobs': m0003AuditJobs,
  '0004_bot_requests': m0004BotRequests,
  // Named to sort after 0004_bot_requests, which stores may already have applied.
  '0004_session_state': m0004SessionState,
  '0005_seed_runs': m0005SeedRuns,
  '0006_approval_dry_run': m0006ApprovalDryRun,
};
