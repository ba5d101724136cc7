// Service runs: one row per (job run, service) following the agent's lifecycle events — `starting`, then
// `ready`, then `stopped`, or `failed` at any point. Events may arrive twice (a resend) or late; a row never
// moves backwards (`ready` after `stopped` is ignored) and `failed` is final, so a service that died stays
// visible as failed even when the agent later reports it stopped.
import { jobRunDisplayName } from '../domain/index.js';
import type { StoreDb } from '../store/database.js';
import type { ServiceRunStatus } from '../store/execution-schema.js';
import { newId } from '../store/ids.js';

export const SERVICE_STATES: readonly ServiceRunStatus[] = ['starting', 'ready', 'failed', 'stopped'];
const RANK: Record<ServiceRunStatus, number> = { starting: 0, ready: 1, stopped: 2, failed: 3 };

export interface ServiceEventInput {
  jobRunId: string;
  serviceName: string;
  state: string;
  message?: string;
  /** Unix milliseconds on the agent; 0 or missing means "now". */
  atMs?: number | bigint;
}

export interface ServiceRunView {
  id: string;
  run_id: string;
  job_run_id: string;
  job_name: string;
  name: string;
  status: ServiceRunStatus;
  message: string | null;
  started_at: string;
  updated_at: string;
}

export class ServiceEventError extends Error {
  override name = 'ServiceEventError';
  constructor(
    readonly kind: 'invalid' | 'not_found',
    message: string,
  ) {
    super(message);
  }
}

export class ServiceRunStore {
  private readonly db: StoreDb;

  constructor(db: StoreDb) {
    this.db = db;
  }

  /**
   * Applies one lifecycle event. Returns the row's status afterwards. Throws `ServiceEventError` for an
   * unknown state, an empty or overlong name (`invalid`) or an unknown job run (`not_found`).
   */
  async recordServiceEvent(event: ServiceEventInput): Promise<ServiceRunStatus> {
    const state = event.state as ServiceRunStatus;
    if (!SERVICE_STATES.includes(state))
      throw new ServiceEventError('invalid', `service state must be one of ${SERVICE_STATES.join(', ')}`);
    const name = event.serviceName;
    if (!name || name.length > 200)
      throw new ServiceEventError('invalid', 'service name must be 1 to 200 characters');
    const ms = Number(event.atMs ?? 0);
    const at = new Date(ms > 0 && Number.isFinite(ms) ? ms : Date.now()).toISOString();
    const message = event.message ? event.message.replaceAll('\u0000', '').slice(0, 4_000) : null;
    return this.db.transaction().execute(async (trx) => {
      const job = await trx
        .selectFrom('job_runs')
        .select('run_id')
        .where('id', '=', event.jobRunId)
        .executeTakeFirst();
      if (!job) throw new ServiceEventError('not_found', `job run ${event.jobRunId} does not exist`);
      const inserted = await trx
        .insertInto('service_runs')
        .values({
          id: newId(),
          run_id: job.run_id,
          job_run_id: event.jobRunId,
          name,
          status: state,
          message,
          started_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.columns(['job_run_id', 'name']).doNothing())
        .returning('status')
        .executeTakeFirst();
      if (inserted) return state;
      // Conditional on the current state, so concurrent events can never move a row backwards.
      const lower = SERVICE_STATES.filter((s) => RANK[s] < RANK[state]);
      const updated =
        lower.length === 0
          ? undefined
          : await trx
              .updateTable('service_runs')
              .set({ status: state, message, updated_at: at })
              .where('job_run_id', '=', event.jobRunId)
              .where('name', '=', name)
              .where('status', 'in', lower)
              .returning('status')
              .executeTakeFirst();
      if (updated) return state;
      const row = await trx
        .selectFrom('service_runs')
        .select('status')
        .where('job_run_id', '=', event.jobRunId)
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      return row.status;
    });
  }

  /** Rows of a run in start order; `undefined` when the run does not exist. */
  async listRunServices(runId: string): Promise<ServiceRunView[] | undefined> {
    const run = await this.db.selectFrom('runs').select('id').where('id', '=', runId).executeTakeFirst();
    if (!run) return undefined;
    const rows = await this.db
      .selectFrom('service_runs as s')
      .innerJoin('job_runs as j', 'j.id', 's.job_run_id')
      .select([
        's.id',
        's.run_id',
        's.job_run_id',
        's.name',
        's.status',
        's.message',
        's.started_at',
        's.updated_at',
        'j.name as job',
        'j.matrix',
      ])
      .where('s.run_id', '=', runId)
      .orderBy('s.started_at')
      .orderBy('s.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      run_id: r.run_id,
      job_run_id: r.job_run_id,
      job_name: jobRunDisplayName(r.job, parseMatrix(r.matrix)),
      name: r.name,
      status: r.status,
      message: r.message,
      started_at: r.started_at,
      updated_at: r.updated_at,
    }));
  }
}

function parseMatrix(text: string): Record<string, string> {
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}
