// The Athena provider: an AthenaClient per datasource (region, optional endpoint override, access key
// credentials). Each statement runs as a job (job.ts) under the query deadline: at `queryTimeout` the job is
// stopped with StopQueryExecution and the caller gets 408; /api/db/cancel stops it the same way. Results are
// read page by page until one row more than asked is held, so `hasMore` is exact; exports stream the pages.

import { AthenaClient } from '@aws-sdk/client-athena';
import { sessionWithoutTransactions } from '../buffered-results.js';
import { type Catalog, guardedCatalog } from '../catalog.js';
import { withDeadline } from '../deadline.js';
import { ProviderError, unsupported } from '../errors.js';
import type {
  ExecOptions,
  ExecResult,
  ParamValue,
  Provider,
  ProviderContext,
  ProviderSession,
  ResolvedConnection,
  StreamBatch,
} from '../types.js';
import { uniqueFields } from '../values.js';
import { AthenaCatalog } from './catalog.js';
import { athenaCapabilities, athenaSettings } from './engine.js';
import {
  awaitJob,
  type JobPage,
  type JobSettings,
  mapAthenaError,
  readPage,
  startJob,
  stopJob,
  transposeLimitOffset,
} from './job.js';

class AthenaProvider implements Provider {
  readonly engine = 'athena' as const;
  readonly capabilities = athenaCapabilities;
  private readonly client: AthenaClient;
  private readonly job: JobSettings;
  private running = 0;
  readonly catalog: Catalog;

  constructor(private readonly conn: ResolvedConnection) {
    const d = conn.descriptor;
    const s = athenaSettings(d);
    this.client = new AthenaClient({
      region: s.region,
      ...(s.endpoint ? { endpoint: s.endpoint } : {}),
      ...(d.user ? { credentials: { accessKeyId: d.user, secretAccessKey: d.password ?? '' } } : {}),
      maxAttempts: 2,
    });
    this.job = {
      workgroup: s.workgroup,
      ...(d.database ? { database: d.database } : {}),
      ...(s.outputLocation ? { outputLocation: s.outputLocation } : {}),
    };
    this.catalog = guardedCatalog(
      new AthenaCatalog(this.client, s.workgroup, d.database || undefined, d.user),
      (work) => this.guarded(work),
    );
  }

  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await withDeadline(work(), { timeoutMs: this.conn.queryTimeoutMs, cancel: () => undefined });
    } catch (err) {
      throw mapAthenaError(err);
    }
  }

  /** Runs `sql` as a job and hands each page to `onPage` until it answers false; stops the job at the deadline. */
  private async run(
    sql: string,
    params: ParamValue[],
    pageSize: () => number,
    onPage: (p: JobPage) => boolean,
    onStart?: ExecOptions['onStart'],
  ): Promise<void> {
    if (params.length > 0) throw unsupported('Athena statements take no positional params here');
    let id: string | undefined;
    let stopped = false;
    const stop = async () => {
      stopped = true;
      if (id) await stopJob(this.client, id).catch(() => undefined);
    };
    onStart?.(stop);
    this.running++;
    try {
      await withDeadline(
        (async () => {
          id = await startJob(this.client, transposeLimitOffset(sql), this.job);
          if (stopped) await stopJob(this.client, id).catch(() => undefined);
          const q = await awaitJob(this.client, id, () => stopped);
          let next: string | undefined;
          do {
            const page = await readPage(this.client, id, q, pageSize(), next);
            if (!onPage(page)) return;
            next = page.next;
          } while (next);
        })(),
        { timeoutMs: this.conn.queryTimeoutMs, cancel: stop },
      );
    } catch (err) {
      if (err instanceof ProviderError && err.kind === 'cancelled' && stopped)
        throw new ProviderError('cancelled', 'The query was stopped (StopQueryExecution)');
      throw mapAthenaError(err);
    } finally {
      this.running--;
    }
  }

  async query(sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult> {
    const want = opts.maxRows + 1;
    let fields: string[] = [];
    let types: string[] = [];
    const rows: unknown[][] = [];
    let updateCount: number | undefined;
    let more = false;
    await this.run(
      sql,
      params,
      // One more than wanted (the first page also carries a SELECT's header row).
      () => want - rows.length + 1,
      (p) => {
        if (fields.length === 0) {
          fields = uniqueFields(p.fields);
          types = p.types;
        }
        rows.push(...p.rows);
        if (p.updateCount !== undefined) updateCount = p.updateCount;
        if (rows.length >= want) {
          more = true;
          return false;
        }
        return true;
      },
      opts.onStart,
    );
    const truncated = more && rows.length > opts.maxRows;
    const kept = rows.slice(0, opts.maxRows);
    return {
      fields,
      rows: kept.map((r) => Object.fromEntries(fields.map((f, i) => [f, r[i]]))),
      rowCount: fields.length > 0 ? kept.length : (updateCount ?? 0),
      truncated,
      ...(fields.length > 0 ? { columnTypes: Object.fromEntries(fields.map((f, i) => [f, types[i]])) } : {}),
    };
  }

  async explain(): Promise<never> {
    throw unsupported('Athena plans are not offered by the portal');
  }

  async *stream(
    sql: string,
    params: ParamValue[],
    opts: { maxRows: number; batchSize: number },
  ): AsyncIterable<StreamBatch> {
    if (params.length > 0) throw unsupported('Athena statements take no positional params here');
    // The job's pages are handed out as they are read (constant memory); each wait has the query deadline
    // and a wait past it stops the job.
    let id: string | undefined;
    const step = <T>(work: () => Promise<T>) =>
      withDeadline(work(), {
        timeoutMs: this.conn.queryTimeoutMs,
        cancel: async () => {
          if (id) await stopJob(this.client, id).catch(() => undefined);
        },
      }).catch((err) => {
        throw mapAthenaError(err);
      });
    this.running++;
    try {
      id = await step(() => startJob(this.client, transposeLimitOffset(sql), this.job));
      const jobId = id;
      const q = await step(() => awaitJob(this.client, jobId, () => false));
      let sent = 0;
      let next: string | undefined;
      do {
        const page = await step(() =>
          readPage(this.client, jobId, q, Math.min(opts.batchSize, opts.maxRows - sent + 1), next),
        );
        const rows = page.rows.slice(0, opts.maxRows - sent);
        sent += rows.length;
        yield { fields: uniqueFields(page.fields), columnTypes: page.types, rows };
        next = page.next;
      } while (next && sent < opts.maxRows);
    } finally {
      this.running--;
    }
  }

  async openSession(): Promise<ProviderSession> {
    return sessionWithoutTransactions(
      (sql, params, opts) => this.query(sql, params, opts),
      'Athena has no transactions',
    );
  }

  poolStats() {
    return { total: 1, idle: this.running > 0 ? 0 : 1, waiting: 0 };
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

/** Opens the provider (the registry calls this through the engine descriptor, on first use). */
export async function createProvider(conn: ResolvedConnection, _ctx: ProviderContext): Promise<Provider> {
  return new AthenaProvider(conn);
}
