// The job queue the worker role drains. A claim is one conditional UPDATE … RETURNING: on PostgreSQL the
// candidate row is picked with `FOR UPDATE SKIP LOCKED`, so concurrent workers never wait on or share a job;
// on SQLite the single statement is an implicit transaction under the database's single-writer lock. A claimed job
// holds a lease the worker renews; a job whose lease lapsed is re-queued (or failed after its last attempt).
import { randomUUID } from 'node:crypto';
import type { DialectName } from '@app/kit';
import type { Kysely, Selectable } from 'kysely';
import type { JobTable, PortalDatabase } from './schema.js';

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface Job<P = unknown> {
  id: string;
  type: string;
  payload: P;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  runAfter: string;
  lockedBy: string | null;
  leaseUntil: string | null;
  result: unknown;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export interface EnqueueOptions {
  /** Earliest start (default now). */
  runAfter?: Date;
  /** Attempts before the job fails for good (default 3). */
  maxAttempts?: number;
  id?: string;
}

export interface ClaimOptions {
  /** Lease length (default 60 s); renew before it lapses. */
  leaseMs?: number;
  /** Only jobs of these types (the ones this worker has handlers for). */
  types?: string[];
}

function toJob(row: Selectable<JobTable>): Job {
  return {
    id: row.id,
    type: row.type,
    payload: JSON.parse(row.payload),
    status: row.status as JobStatus,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAfter: row.run_after,
    lockedBy: row.locked_by,
    leaseUntil: row.lease_until,
    result: row.result === null ? null : JSON.parse(row.result),
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}

const MAX_ERROR_CHARS = 4000;

export class JobQueue {
  constructor(
    private readonly db: Kysely<PortalDatabase>,
    private readonly dialect: DialectName,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async enqueue<P>(type: string, payload: P, options: EnqueueOptions = {}): Promise<Job<P>> {
    const at = this.now().toISOString();
    const row: JobTable = {
      id: options.id ?? randomUUID(),
      type,
      payload: JSON.stringify(payload ?? null),
      status: 'queued',
      attempts: 0,
      max_attempts: options.maxAttempts ?? 3,
      run_after: (options.runAfter ?? this.now()).toISOString(),
      locked_by: null,
      lease_until: null,
      result: null,
      error: null,
      created_at: at,
      updated_at: at,
      finished_at: null,
    };
    await this.db.insertInto('jobs').values(row).execute();
    return toJob(row) as Job<P>;
  }

  async get(id: string): Promise<Job | undefined> {
    const row = await this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toJob(row);
  }

  /** Atomically takes the oldest runnable job for `workerId`, or answers undefined when there is none. */
  async claim(workerId: string, options: ClaimOptions = {}): Promise<Job | undefined> {
    if (options.types && options.types.length === 0) return undefined;
    const now = this.now();
    const at = now.toISOString();
    const leaseUntil = new Date(now.getTime() + (options.leaseMs ?? 60_000)).toISOString();
    const run = async (db: Kysely<PortalDatabase>) => {
      const row = await db
        .updateTable('jobs')
        .set((eb) => ({
          status: 'running',
          locked_by: workerId,
          lease_until: leaseUntil,
          attempts: eb('attempts', '+', 1),
          updated_at: at,
        }))
        .where('status', '=', 'queued')
        .where('id', '=', (eb) => {
          let pick = eb
            .selectFrom('jobs')
            .select('id')
            .where('status', '=', 'queued')
            .where('run_after', '<=', at);
          if (options.types) pick = pick.where('type', 'in', options.types);
          pick = pick.orderBy('run_after').orderBy('created_at').orderBy('id').limit(1);
          return this.dialect === 'postgres' ? pick.forUpdate().skipLocked() : pick;
        })
        .returningAll()
        .executeTakeFirst();
      return row && toJob(row);
    };
    // One statement is its own transaction on both dialects. PostgreSQL: SKIP LOCKED makes concurrent
    // claimers pass over a row another one is taking. SQLite: the statement holds the database's write lock
    // from pick to RETURNING, so no other connection or process can pick the same row. (An explicit
    // BEGIN … COMMIT would add an await between the steps, during which a second handle in the same thread
    // would block on the lock synchronously and deadlock.)
    return run(this.db);
  }

  /** Extends the lease of a job this worker still holds; false when the lease was lost. */
  async renew(id: string, workerId: string, leaseMs = 60_000): Promise<boolean> {
    const now = this.now();
    const res = await this.db
      .updateTable('jobs')
      .set({ lease_until: new Date(now.getTime() + leaseMs).toISOString(), updated_at: now.toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('locked_by', '=', workerId)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Marks a held job done; false when this worker no longer holds it (its lease lapsed and it moved on). */
  async complete(id: string, workerId: string, result: unknown = null): Promise<boolean> {
    const at = this.now().toISOString();
    const res = await this.db
      .updateTable('jobs')
      .set({
        status: 'done',
        result: JSON.stringify(result ?? null),
        error: null,
        lease_until: null,
        updated_at: at,
        finished_at: at,
      })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('locked_by', '=', workerId)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /**
   * Records a failed attempt of a held job: back to the queue after `retryDelayMs` (default exponential,
   * 1 s · 2^attempts, at most 5 minutes) while attempts remain, else failed for good. `retry: false` fails
   * it at once. Answers the job's new state, or undefined when this worker no longer holds it.
   */
  async fail(
    id: string,
    workerId: string,
    error: string,
    options: { retry?: boolean; retryDelayMs?: number } = {},
  ): Promise<Job | undefined> {
    const now = this.now();
    const at = now.toISOString();
    const message = error.slice(0, MAX_ERROR_CHARS);
    // Read, then a compare-and-set on what was read: no transaction needed, and a lease lost in between
    // simply makes the update match nothing.
    const held = await this.db
      .selectFrom('jobs')
      .select(['attempts', 'max_attempts'])
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('locked_by', '=', workerId)
      .executeTakeFirst();
    if (!held) return undefined;
    const retry = options.retry !== false && held.attempts < held.max_attempts;
    const delay = options.retryDelayMs ?? Math.min(1000 * 2 ** held.attempts, 300_000);
    const row = await this.db
      .updateTable('jobs')
      .set(
        retry
          ? {
              status: 'queued',
              locked_by: null,
              lease_until: null,
              run_after: new Date(now.getTime() + delay).toISOString(),
              error: message,
              updated_at: at,
            }
          : { status: 'failed', lease_until: null, error: message, updated_at: at, finished_at: at },
      )
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('locked_by', '=', workerId)
      .where('attempts', '=', held.attempts)
      .returningAll()
      .executeTakeFirst();
    return row && toJob(row);
  }

  /**
   * Re-queues running jobs whose lease lapsed (their worker died or stalled) and fails those that used their
   * last attempt. The failed ones are returned so their owners can record the loss.
   */
  async requeueExpired(): Promise<{ requeued: number; failed: Job[] }> {
    const at = this.now().toISOString();
    // Two statements, each atomic on its own: the first fails jobs that used their last attempt, the
    // second re-queues the rest. A claim never touches running rows, so nothing can slip in between.
    const failed = await this.db
      .updateTable('jobs')
      .set({
        status: 'failed',
        error: 'lease expired on the last attempt',
        lease_until: null,
        updated_at: at,
        finished_at: at,
      })
      .where('status', '=', 'running')
      .where('lease_until', '<', at)
      .where((eb) => eb('attempts', '>=', eb.ref('max_attempts')))
      .returningAll()
      .execute();
    const requeued = await this.db
      .updateTable('jobs')
      .set({
        status: 'queued',
        locked_by: null,
        lease_until: null,
        run_after: at,
        error: 'lease expired',
        updated_at: at,
      })
      .where('status', '=', 'running')
      .where('lease_until', '<', at)
      .executeTakeFirst();
    return { requeued: Number(requeued.numUpdatedRows), failed: failed.map(toJob) };
  }

  /** Counts by status, for metrics and health. */
  async counts(): Promise<Record<JobStatus, number>> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    const out: Record<JobStatus, number> = { queued: 0, running: 0, done: 0, failed: 0 };
    for (const r of rows) out[r.status as JobStatus] = Number(r.n);
    return out;
  }

  /** Deletes finished jobs older than `before` (ISO); for a retention job. */
  async pruneFinished(before: string): Promise<number> {
    const res = await this.db
      .deleteFrom('jobs')
      .where('status', 'in', ['done', 'failed'])
      .where('finished_at', '<', before)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
