// Commit statuses into the notification outbox, written inside the transaction of the run transition (as
// store/notification-outbox.ts does for channels): one `notification_outbox` row of kind `commit_status` per
// status a run sends to its forge — pending when it is created, running when it starts, then its result. The
// deliverer (notifications/forge-status/) sends the rows with the outbox's retries; the token is read there,
// at send time, and is never part of a row.
import {
  DEFAULT_API_URL,
  FORGE_STATUS_KIND,
  FORGE_STATUS_SETTING,
  type ForgeStatusConfig,
  forgeContext,
  forgeDescription,
  forgeStateOf,
  HOST_STATE,
  isCommitSha,
  parseForgeStatusConfig,
  reportsCause,
  repositoryPath,
} from '../domain/forge-status.js';
import type { StoreDb } from './database.js';
import { newId, nowIso } from './ids.js';
import type { RunFacts } from './notification-outbox.js';

/** The run facts a channel notification carries, and what a commit status needs besides. */
export interface StatusRunFacts extends RunFacts {
  rerun_of?: string | null;
  /** A fork's pull request waiting for a maintainer (services/fork-runs.ts). */
  held?: boolean;
}

/** What a stored commit-status row carries (the payload column), for the sender. */
export interface ForgeStatusPayload {
  event: string;
  at: string;
  host: ForgeStatusConfig['host'];
  api_url: string;
  repository: string;
  sha: string;
  /** The host's own state word (`success`, `failed`, `SUCCESSFUL`, …). */
  state: string;
  description: string;
  context: string;
  username: string | null;
  /** The material whose repository this is: its SCM credential is the token when the project has none. */
  material_url: string | null;
  project: { slug: string | null; name: string | null };
  pipeline: { id: string; name: string | null };
  run: { id: string; counter: number; status: string; cause: string; git_ref: string | null; url?: string };
}

async function hasStatuses(trx: StoreDb, projectId: string, runId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('notification_outbox')
    .select('id')
    .where('project_id', '=', projectId)
    .where('run_id', '=', runId)
    .where('channel_kind', '=', FORGE_STATUS_KIND)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The git material a run reports on: the pipeline's only one, or among several the one whose recorded
 * modifications hold the run's revision (pushes seen by a webhook or a poll), else the first.
 */
async function materialOf(trx: StoreDb, pipelineId: string, revision: string): Promise<string | null> {
  const rows = await trx
    .selectFrom('materials')
    .select(['fingerprint', 'config'])
    .where('pipeline_id', '=', pipelineId)
    .where('kind', '=', 'git')
    .orderBy('position')
    .execute();
  if (rows.length === 0) return null;
  const urlOf = (config: string) => (JSON.parse(config) as { git: { url: string } }).git.url;
  if (rows.length === 1) return urlOf(rows[0].config);
  const seen = await trx
    .selectFrom('material_modifications')
    .select('fingerprint')
    .where(
      'fingerprint',
      'in',
      rows.map((r) => r.fingerprint),
    )
    .where('revision', '=', revision)
    .limit(1)
    .executeTakeFirst();
  const chosen = rows.find((r) => r.fingerprint === seen?.fingerprint) ?? rows[0];
  return urlOf(chosen.config);
}

/**
 * Whether a transition may raise a commit status at all (a changed state of one a forge knows, on a commit):
 * when not, enqueueForgeStatus reads nothing, and creating a run may skip it (services/run-create.ts).
 */
export function mayReportStatus(
  revision: string | null,
  previousStatus: string | null,
  status: string,
): boolean {
  return previousStatus !== status && forgeStateOf(status) !== null && isCommitSha(revision);
}

/**
 * Writes the commit status a transition raises, if any: only when the project has a commit-status
 * configuration, the run reports (domain `reportsCause`, or a rerun of a run that reported) and the state
 * changed. Cheap for projects without one (one indexed read).
 */
export async function enqueueForgeStatus(
  trx: StoreDb,
  run: StatusRunFacts,
  previousStatus: string | null,
  status: string,
): Promise<void> {
  if (!mayReportStatus(run.revision, previousStatus, status)) return;
  const state = forgeStateOf(status);
  if (state === null || !isCommitSha(run.revision)) return;
  const setting = await trx
    .selectFrom('project_settings')
    .select('value')
    .where('project_id', '=', run.project_id)
    .where('key', '=', FORGE_STATUS_SETTING)
    .executeTakeFirst();
  const config = parseForgeStatusConfig(setting?.value);
  if (!config) return;
  if (!reportsCause(run.cause, run.revision)) {
    if (run.cause !== 'rerun') return;
    // A rerun reports when its origin did (created now), or when it already reported (later transitions).
    const origin = previousStatus === null ? run.rerun_of : run.id;
    if (!origin || !(await hasStatuses(trx, run.project_id, origin))) return;
  }
  const materialUrl = await materialOf(trx, run.pipeline_id, run.revision);
  const repository =
    config.repository ?? (materialUrl === null ? null : repositoryPath(materialUrl, config.host));
  // A local or foreign URL names no repository on the forge: set `repository` in the configuration.
  if (repository === null) return;
  const names = await trx
    .selectFrom('projects')
    .innerJoin('pipelines', 'pipelines.project_id', 'projects.id')
    .select(['projects.slug', 'projects.name as project_name', 'pipelines.name as pipeline_name'])
    .where('pipelines.id', '=', run.pipeline_id)
    .executeTakeFirst();
  const now = nowIso();
  const id = newId();
  const payload: ForgeStatusPayload = {
    event: `commit_status.${state}`,
    at: now,
    host: config.host,
    api_url: (config.api_url ?? DEFAULT_API_URL[config.host]).replace(/\/+$/, ''),
    repository,
    sha: run.revision,
    state: HOST_STATE[config.host][state],
    description: forgeDescription(run.counter, state, run.held === true),
    context: forgeContext(
      config.context_prefix,
      names?.slug ?? run.project_id,
      names?.pipeline_name ?? run.pipeline_id,
    ),
    username: config.username,
    material_url: materialUrl,
    project: { slug: names?.slug ?? null, name: names?.project_name ?? null },
    pipeline: { id: run.pipeline_id, name: names?.pipeline_name ?? null },
    run: { id: run.id, counter: run.counter, status, cause: run.cause, git_ref: run.git_ref },
  };
  await trx
    .insertInto('notification_outbox')
    .values({
      id,
      project_id: run.project_id,
      run_id: run.id,
      event: payload.event,
      channel_kind: FORGE_STATUS_KIND,
      target: `${config.host}:${repository}@${run.revision}`,
      payload: JSON.stringify(payload),
      // A run may pass one state twice (a job rerun after a failure): the row id keeps each status its own.
      idempotency_key: `${run.id}:${FORGE_STATUS_KIND}:${status}:${id}`,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      last_error: null,
      response_status: null,
      created_at: now,
      delivered_at: null,
    })
    .execute();
}
