// The one schema type of the control plane's store: every table the migrations create, with its row type
// (the row types live beside this file, one file per group of migrations). Every module types its handle as
// `StoreDb`, so a column reads the same everywhere and a new table is declared once.
import type { Kysely } from 'kysely';
import type { AgentsTable } from './agent-schema.js';
import type {
  ApiTokensTable,
  AuditLogTable,
  AuthProvidersTable,
  GlobalSecretsTable,
  ServiceAccountsTable,
  UserPreferencesTable,
  UserSessionsTable,
  UsersTable,
} from './auth-schema.js';
import type {
  CacheEntriesTable,
  RunLogHeadsTable,
  ServiceRunsTable,
  TestCasesTable,
  TestReportsTable,
} from './execution-schema.js';
import type { BlobDeletionsTable, LogArchivesTable, NotificationOutboxTable } from './operations-schema.js';
import type {
  ArtifactsTable,
  ConcurrencyGroupsTable,
  JobRunDecisionsTable,
  JobRunsTable,
  LogLinesTable,
  MaterialsTable,
  PipelinesTable,
  PipelineVersionsTable,
  ProjectSecretsTable,
  ProjectSettingsTable,
  ProjectsTable,
  RunStatsTable,
  RunsTable,
  ServerSettingsTable,
  StageRunsTable,
} from './schema.js';
import type {
  CronFiringsTable,
  CronStateTable,
  ForkRunsTable,
  LeaderLeasesTable,
  MaterialModificationsTable,
  MaterialPollStateTable,
  ProjectCronsTable,
  ProjectPollSettingsTable,
  ScmCredentialsTable,
  TriggerClaimsTable,
  WebhookDeliveriesTable,
  WebhookDeliveryClaimsTable,
} from './trigger-schema.js';

export interface StoreSchema {
  // 0001
  server_settings: ServerSettingsTable;
  // 0002 (+ lease columns of 0004, run cursor of 0005)
  projects: ProjectsTable;
  pipelines: PipelinesTable;
  pipeline_versions: PipelineVersionsTable;
  materials: MaterialsTable;
  runs: RunsTable;
  stage_runs: StageRunsTable;
  job_runs: JobRunsTable;
  job_run_decisions: JobRunDecisionsTable;
  log_lines: LogLinesTable;
  artifacts: ArtifactsTable;
  project_secrets: ProjectSecretsTable;
  run_stats: RunStatsTable;
  // 0003
  users: UsersTable;
  user_sessions: UserSessionsTable;
  service_accounts: ServiceAccountsTable;
  api_tokens: ApiTokensTable;
  user_preferences: UserPreferencesTable;
  auth_providers: AuthProvidersTable;
  audit_log: AuditLogTable;
  global_secrets: GlobalSecretsTable;
  // 0004
  agents: AgentsTable;
  // 0005
  run_log_heads: RunLogHeadsTable;
  service_runs: ServiceRunsTable;
  test_reports: TestReportsTable;
  test_cases: TestCasesTable;
  cache_entries: CacheEntriesTable;
  // 0006
  material_modifications: MaterialModificationsTable;
  material_poll_state: MaterialPollStateTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_claims: WebhookDeliveryClaimsTable;
  project_crons: ProjectCronsTable;
  cron_state: CronStateTable;
  cron_firings: CronFiringsTable;
  project_poll_settings: ProjectPollSettingsTable;
  scm_credentials: ScmCredentialsTable;
  trigger_claims: TriggerClaimsTable;
  leader_leases: LeaderLeasesTable;
  // 0007
  project_settings: ProjectSettingsTable;
  // 0009
  log_archives: LogArchivesTable;
  blob_deletions: BlobDeletionsTable;
  notification_outbox: NotificationOutboxTable;
  // 0012
  fork_runs: ForkRunsTable;
  // 0016
  concurrency_groups: ConcurrencyGroupsTable;
}

export type StoreDb = Kysely<StoreSchema>;
