// The seed-data feature behind its routes and its job: checks a request against the datasources (unknown
// 404, unavailable 503, other engine family 403, production or read-only 403, copy source rules), plans
// against the live schema, queues a run (one active run per datasource, 409 otherwise), runs the `seed.run`
// job where jobs run (studio or worker), and reconciles runs whose job was lost (every table marked).
// Every step is audited `data_seed`.
import { randomUUID } from 'node:crypto';
import { HttpError } from '@app/kit';
import type { ManagedEntry } from '../datasources/types.js';
import type { ProviderCache } from '../providers/cache.js';
import type { Provider } from '../providers/types.js';
import type { JobWorker } from '../storage/job-worker.js';
import type { Job, JobQueue } from '../storage/jobs.js';
import { currentSchema } from './catalog.js';
import { executeSeed, planFor } from './execute.js';
import { type FamilyTarget, familyTarget } from './family.js';
import type { SeedRunRepository } from './store.js';
import type { SeedPlan, SeedRequest, SeedRun, SeedRunTable } from './types.js';

export const SEED_JOB = 'seed.run';
export const LOST_MESSAGE = 'the job running this seed was lost (its worker stopped before finishing)';

export interface SeedAudit {
  record(event: {
    type: string;
    actor?: string | null;
    connection?: string | null;
    result?: 'success' | 'failure';
    [k: string]: unknown;
  }): unknown;
}

export interface SeedServiceDeps {
  runs: SeedRunRepository;
  jobs: JobQueue;
  datasources: { resolve(id: string): ManagedEntry | undefined };
  providers: ProviderCache;
  audit: SeedAudit;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Nudges this process's worker after an enqueue. */
  wake?: () => void;
  /** Called after each table (tests pause a worker here). */
  afterTable?: (runId: string, table: string) => Promise<void>;
  now?: () => Date;
}

export class SeedService {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly d: SeedServiceDeps) {}

  /** A datasource the caller may seed, or the refusal (404, 503, 403). */
  target(id: string, label = 'datasource'): FamilyTarget {
    return familyTarget(
      this.d.datasources,
      id,
      'Seed data supports PostgreSQL-style and MySQL-style engines only',
      label,
    );
  }

  private writable(t: FamilyTarget): void {
    if (t.ds.connection.environment === 'production') {
      throw new HttpError(
        403,
        `Seed data is never written to a production datasource (${t.ds.id})`,
        'PRODUCTION_DATASOURCE',
      );
    }
    if (t.ds.policy.readOnly) throw new HttpError(403, `The datasource ${t.ds.id} is read-only`, 'READ_ONLY');
  }

  private async schemaOf(t: FamilyTarget, p: Provider, schema: string | undefined): Promise<string> {
    const s = schema ?? (await currentSchema(p, t.family));
    if (!s)
      throw new HttpError(
        400,
        `The datasource ${t.ds.id} has no default schema: name one in schema`,
        'BAD_REQUEST',
      );
    return s;
  }

  /** Copy source checks: 404 unknown, 403 another engine; answers the source target. */
  private source(t: FamilyTarget, request: SeedRequest): FamilyTarget | undefined {
    if (request.mode !== 'copy') return undefined;
    const s = this.target(request.sourceDatasourceId as string, 'source datasource');
    if (s.ds.type !== t.ds.type) {
      throw new HttpError(
        403,
        `Copy mode needs a source of the same engine (${t.ds.type}), not ${s.ds.type}`,
        'ENGINE_MISMATCH',
      );
    }
    return s;
  }

  private async withProviders<T>(
    t: FamilyTarget,
    s: FamilyTarget | undefined,
    fn: (target: Provider, source?: Provider) => Promise<T>,
  ): Promise<T> {
    return this.d.providers.use(t.descriptor, (target) =>
      s ? this.d.providers.use(s.descriptor, (source) => fn(target, source)) : fn(target),
    );
  }

  /** The fill order with columns, parents and row counts; 400 when the schema has no tables or unknown names. */
  async plan(
    request: Pick<SeedRequest, 'datasourceId' | 'schema' | 'counts' | 'ratios'> & Partial<SeedRequest>,
  ): Promise<SeedPlan> {
    const t = this.target(request.datasourceId);
    this.writable(t);
    const full: SeedRequest = { mode: 'generate', truncate: false, ...request };
    const s = this.source(t, full);
    return this.withProviders(t, s, async (target, source) => {
      const schema = await this.schemaOf(t, target, request.schema);
      const sourceSchema = source && s ? await currentSchema(source, s.family) : undefined;
      const { plan } = await planFor({
        target,
        source: source && sourceSchema ? { provider: source, schema: sourceSchema } : undefined,
        family: t.family,
        schema,
        request: full,
      });
      if (plan.tables.length === 0)
        throw new HttpError(400, `The schema ${schema} has no tables to seed`, 'BAD_REQUEST');
      const names = new Set(plan.tables.map((x) => x.name));
      for (const field of ['counts', 'ratios'] as const) {
        const unknown = Object.keys(request[field] ?? {}).filter((k) => !names.has(k));
        if (unknown.length)
          throw new HttpError(
            400,
            `${field} names tables not in ${schema}: ${unknown.join(', ')}`,
            'BAD_REQUEST',
          );
      }
      return plan;
    });
  }

  /** Queues a run (202 with the run); 409 while another is queued or running on the datasource. */
  async queue(request: SeedRequest, actor: string): Promise<SeedRun> {
    const plan = await this.plan(request);
    const t = this.target(request.datasourceId);
    const s = this.source(t, request);
    const at = (this.d.now?.() ?? new Date()).toISOString();
    const run: SeedRun = {
      id: randomUUID(),
      status: 'queued',
      mode: request.mode,
      datasourceId: t.ds.id,
      schema: plan.schema,
      ...(s ? { sourceId: s.ds.id, sourceName: s.ds.name } : {}),
      jobId: randomUUID(),
      tables: plan.tables.map((x) => ({ name: x.name, target: x.rows, inserted: 0, status: 'pending' })),
      actor,
      createdAt: at,
      updatedAt: at,
    };
    const stored = await this.d.runs.create(run, { ...request, schema: plan.schema });
    if (!stored) {
      await this.d.audit.record({
        type: 'data_seed',
        actor,
        connection: t.ds.id,
        result: 'failure',
        action: 'refused',
        reason: 'a seed run is already queued or running',
      });
      throw new HttpError(409, `A seed run is already queued or running on ${t.ds.id}`, 'SEED_RUN_ACTIVE');
    }
    try {
      // One attempt: a run that died half-way is reported lost, never run again over its own rows.
      await this.d.jobs.enqueue(SEED_JOB, { runId: run.id }, { id: run.jobId, maxAttempts: 1 });
    } catch (err) {
      await this.d.runs.remove(run.id);
      throw err;
    }
    await this.d.audit.record({
      type: 'data_seed',
      actor,
      connection: t.ds.id,
      result: 'success',
      action: 'queued',
      runId: run.id,
      mode: run.mode,
      schema: run.schema,
      ...(s ? { source: s.ds.id } : {}),
      truncate: request.truncate,
    });
    this.d.wake?.();
    return stored;
  }

  /** The run, reconciled first with its job (a lost job ends the run with every table marked). */
  async get(id: string): Promise<SeedRun | undefined> {
    const run = await this.d.runs.get(id);
    if (!run || run.status === 'done' || run.status === 'failed') return run;
    await this.d.jobs.requeueExpired().catch(() => undefined);
    await this.reconcileOne(run);
    return this.d.runs.get(id);
  }

  private async reconcileOne(run: SeedRun): Promise<void> {
    const job = await this.d.jobs.get(run.jobId);
    if (job && (job.status === 'queued' || job.status === 'running')) return;
    const latest = (await this.d.runs.get(run.id)) ?? run;
    const tables: SeedRunTable[] = latest.tables.map((x) =>
      x.status === 'done' ? x : { ...x, status: 'lost', error: x.error ?? LOST_MESSAGE },
    );
    if (
      await this.d.runs.finish(
        run.id,
        'failed',
        tables,
        job?.error ? `${LOST_MESSAGE}: ${job.error}` : LOST_MESSAGE,
      )
    ) {
      await this.d.audit.record({
        type: 'data_seed',
        actor: run.actor,
        connection: run.datasourceId,
        result: 'failure',
        action: 'lost',
        runId: run.id,
      });
    }
  }

  /** The runs queued or running, oldest first (`GET /api/connections/managed` answers them as `pendingSeeds`). */
  async pending(): Promise<Array<Pick<SeedRun, 'datasourceId' | 'mode' | 'status'> & { runId: string }>> {
    const runs = await this.d.runs.active();
    return runs
      .sort((x, y) => x.createdAt.localeCompare(y.createdAt))
      .map((r) => ({ datasourceId: r.datasourceId, runId: r.id, status: r.status, mode: r.mode }));
  }

  /** Compares every active run with its job; the studio and worker run it periodically. */
  async reconcile(): Promise<void> {
    await this.d.jobs.requeueExpired().catch(() => undefined);
    for (const run of await this.d.runs.active()) await this.reconcileOne(run);
  }

  /** The `seed.run` job. */
  async handle(job: Job, signal: AbortSignal): Promise<unknown> {
    const runId = (job.payload as { runId?: string }).runId ?? '';
    const run = await this.d.runs.get(runId);
    if (run?.status !== 'queued') return { skipped: true };
    const request = (await this.d.runs.request(runId)) as SeedRequest;
    const fail = async (message: string, tables: SeedRunTable[]) => {
      await this.d.runs.finish(run.id, 'failed', tables, message);
      await this.d.audit.record({
        type: 'data_seed',
        actor: run.actor,
        connection: run.datasourceId,
        result: 'failure',
        action: 'finished',
        runId: run.id,
        error: message,
        tables: summary(tables),
      });
    };
    let outcome: Awaited<ReturnType<typeof executeSeed>>;
    try {
      const t = this.target(run.datasourceId);
      this.writable(t);
      const s = this.source(t, request);
      outcome = await this.withProviders(t, s, async (target, source) =>
        executeSeed({
          target,
          source:
            source && s ? { provider: source, schema: await currentSchema(source, s.family) } : undefined,
          family: t.family,
          schema: run.schema,
          request,
          runId: run.id,
          signal,
          snapshot: (tables) => this.d.runs.snapshot(run.id, tables),
          afterTable: this.d.afterTable
            ? (name) => (this.d.afterTable as NonNullable<SeedServiceDeps['afterTable']>)(run.id, name)
            : undefined,
        }),
      );
    } catch (err) {
      const message = (err as Error).message;
      const current = (await this.d.runs.get(run.id))?.tables ?? run.tables;
      await fail(
        message,
        current.map((x) => (x.status === 'done' ? x : { ...x, status: 'failed', error: x.error ?? message })),
      );
      throw err;
    }
    if (outcome.status === 'failed') {
      await fail(outcome.error ?? 'failed', outcome.tables);
      throw new Error(outcome.error ?? 'seed run failed');
    }
    await this.d.runs.finish(run.id, 'done', outcome.tables);
    await this.d.audit.record({
      type: 'data_seed',
      actor: run.actor,
      connection: run.datasourceId,
      result: 'success',
      action: 'finished',
      runId: run.id,
      tables: summary(outcome.tables),
    });
    return { tables: summary(outcome.tables) };
  }

  registerJobs(worker: JobWorker): void {
    worker.register(SEED_JOB, (job, ctx) => this.handle(job, ctx.signal));
  }

  start(everyMs = 15_000): void {
    this.timer = setInterval(() => {
      this.reconcile().catch((err) => this.d.log?.error({ err }, 'seed run reconcile failed'));
    }, everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}

function summary(tables: SeedRunTable[]) {
  return tables.map((t) => ({ name: t.name, inserted: t.inserted, status: t.status }));
}
