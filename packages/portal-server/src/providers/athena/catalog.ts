// Athena's object surface from the metadata catalog (ListDatabases, ListTableMetadata, GetTableMetadata on
// the AwsDataCatalog) and its readings from the service itself: the workgroup (GetWorkGroup) for the
// profile, recent query executions of the workgroup (ListQueryExecutions + BatchGetQueryExecution) for health
// (running/queued jobs as sessions, the slowest finished jobs as slow queries). Athena keeps no keys, indexes,
// row counts or storage figures, so objects carry none and health says so in words.

import {
  type AthenaClient,
  BatchGetQueryExecutionCommand,
  GetTableMetadataCommand,
  GetWorkGroupCommand,
  ListDatabasesCommand,
  ListQueryExecutionsCommand,
  ListTableMetadataCommand,
  type QueryExecution,
  type TableMetadata,
} from '@aws-sdk/client-athena';
import { ProviderError } from '../errors.js';
import { requireTarget } from '../targets.js';
import type {
  ConnectionProfile,
  DatabaseObject,
  ExecResult,
  HealthReading,
  Inventory,
  KindCount,
  ObjectDetail,
} from '../types.js';
import { stopJob } from './job.js';

const CATALOG = 'AwsDataCatalog';
/** Pages read from a listing before it is reported truncated. */
const MAX_PAGES = 50;

function kindOf(t: TableMetadata): string {
  return /VIEW/i.test(t.TableType ?? '') ? 'view' : 'table';
}

export class AthenaCatalog {
  constructor(
    private readonly client: AthenaClient,
    private readonly workgroup: string,
    private readonly database: string | undefined,
    private readonly user: string | undefined,
  ) {}

  /** The one operation Athena offers: stop a query execution by its id. */
  async maintenance(type: string, target: string | undefined): Promise<ExecResult> {
    if (type !== 'kill')
      throw new ProviderError('configuration', `Unknown maintenance operation ${type}; Athena offers kill`);
    const id = requireTarget(type, target);
    if (!/^[A-Za-z0-9-]{1,128}$/.test(id))
      throw new ProviderError('configuration', 'Maintenance kill needs a query execution id as target');
    await stopJob(this.client, id);
    return { fields: ['stopped'], rows: [{ stopped: id }], rowCount: 1, truncated: false };
  }

  async profile(): Promise<ConnectionProfile> {
    const out = await this.client.send(new GetWorkGroupCommand({ WorkGroup: this.workgroup }));
    const wg = out.WorkGroup;
    const version = wg?.Configuration?.EngineVersion?.EffectiveEngineVersion ?? 'unknown engine version';
    return {
      engine: 'athena',
      serverVersion: `Athena ${version} (workgroup ${wg?.Name ?? this.workgroup}, ${wg?.State ?? 'unknown state'})`,
      ...(this.user ? { currentUser: this.user } : {}),
      ...(this.database ? { currentDatabase: this.database } : {}),
    };
  }

  private async databases(): Promise<{ names: string[]; truncated: boolean }> {
    const names: string[] = [];
    let next: string | undefined;
    let pages = 0;
    do {
      const out = await this.client.send(new ListDatabasesCommand({ CatalogName: CATALOG, NextToken: next }));
      for (const d of out.DatabaseList ?? []) if (d.Name) names.push(d.Name);
      next = out.NextToken;
    } while (next && ++pages < MAX_PAGES);
    return { names: names.sort(), truncated: Boolean(next) };
  }

  private async tables(database: string): Promise<{ objects: DatabaseObject[]; truncated: boolean }> {
    const objects: DatabaseObject[] = [];
    let next: string | undefined;
    let pages = 0;
    do {
      const out = await this.client.send(
        new ListTableMetadataCommand({ CatalogName: CATALOG, DatabaseName: database, NextToken: next }),
      );
      for (const t of out.TableMetadataList ?? [])
        if (t.Name) objects.push({ path: [database, t.Name], name: t.Name, kind: kindOf(t) });
      next = out.NextToken;
    } while (next && ++pages < MAX_PAGES);
    return { objects, truncated: Boolean(next) };
  }

  async listObjects(path: readonly string[] | undefined): Promise<DatabaseObject[]> {
    const dbs = path?.[0] ? [path[0]] : this.database ? [this.database] : (await this.databases()).names;
    const out: DatabaseObject[] = [];
    for (const db of dbs) out.push(...(await this.tables(db)).objects);
    return out;
  }

  async inventory(): Promise<Inventory> {
    const dbs = await this.databases();
    const objects: DatabaseObject[] = [];
    let truncated = dbs.truncated;
    for (const db of dbs.names) {
      const t = await this.tables(db);
      objects.push(...t.objects);
      truncated ||= t.truncated;
    }
    return {
      containers: dbs.names.map((n) => ({ path: [n], name: n, kind: 'database' })),
      objects,
      truncated,
    };
  }

  async counts(): Promise<KindCount[]> {
    const inv = await this.inventory();
    const byKey = new Map<string, KindCount>();
    for (const o of inv.objects) {
      const key = `${o.path[0]}\u0000${o.kind}`;
      const prev = byKey.get(key);
      if (prev) prev.count++;
      else byKey.set(key, { path: [o.path[0]], kind: o.kind, count: 1 });
    }
    return [...byKey.values()];
  }

  async describe(path: readonly string[]): Promise<ObjectDetail | undefined> {
    const [database, name] = path.length >= 2 ? path.slice(-2) : [this.database ?? '', path[0]];
    if (!database || !name) return undefined;
    let t: TableMetadata | undefined;
    try {
      t = (
        await this.client.send(
          new GetTableMetadataCommand({ CatalogName: CATALOG, DatabaseName: database, TableName: name }),
        )
      ).TableMetadata;
    } catch (err) {
      if (
        /MetadataException|EntityNotFound|not found/i.test(`${(err as Error).name} ${(err as Error).message}`)
      )
        return undefined;
      throw err;
    }
    if (!t) return undefined;
    const col = (c: { Name?: string; Type?: string }) => ({
      name: c.Name ?? '',
      type: c.Type ?? '',
      nullable: true,
      isPrimary: false,
    });
    const definition = t.Parameters?.location ?? t.Parameters?.['presto_view'];
    return {
      object: { path: [database, name], name, kind: kindOf(t) },
      // Partition columns follow the data columns, as SELECT * returns them; no keys or indexes exist.
      columns: [...(t.Columns ?? []).map(col), ...(t.PartitionKeys ?? []).map(col)],
      indexes: [],
      foreignKeys: [],
      ...(definition ? { definition } : {}),
    };
  }

  private async recent(): Promise<QueryExecution[]> {
    const ids = (
      await this.client.send(new ListQueryExecutionsCommand({ WorkGroup: this.workgroup, MaxResults: 50 }))
    ).QueryExecutionIds;
    if (!ids || ids.length === 0) return [];
    const out = await this.client.send(new BatchGetQueryExecutionCommand({ QueryExecutionIds: ids }));
    return out.QueryExecutions ?? [];
  }

  async health(): Promise<HealthReading> {
    await this.profile();
    const recent = await this.recent();
    const now = Date.now();
    const active = recent.filter((q) => q.Status?.State === 'RUNNING' || q.Status?.State === 'QUEUED');
    const finished = recent
      .filter(
        (q) => q.Status?.State === 'SUCCEEDED' && q.Statistics?.EngineExecutionTimeInMillis !== undefined,
      )
      .sort(
        (a, b) =>
          (b.Statistics?.EngineExecutionTimeInMillis ?? 0) - (a.Statistics?.EngineExecutionTimeInMillis ?? 0),
      )
      .slice(0, 10);
    return {
      activeConnections: active.length,
      databaseSize: 'not reported by Athena',
      cacheHitRatio: 'not reported by Athena',
      slowQueries: finished.map((q) => ({
        query: q.Query ?? '',
        calls: 1,
        avgTime: q.Statistics?.EngineExecutionTimeInMillis ?? 0,
      })),
      activeSessions: active.map((q) => ({
        pid: q.QueryExecutionId ?? '',
        user: this.user ?? '',
        database: q.QueryExecutionContext?.Database ?? '',
        state: q.Status?.State ?? '',
        query: q.Query ?? '',
        duration: q.Status?.SubmissionDateTime ? Math.max(0, now - q.Status.SubmissionDateTime.getTime()) : 0,
      })),
    };
  }

  async monitoring(): Promise<Record<string, unknown>> {
    const wg = (await this.client.send(new GetWorkGroupCommand({ WorkGroup: this.workgroup }))).WorkGroup;
    const recent = await this.recent();
    const byState: Record<string, number> = {};
    for (const q of recent) {
      const s = q.Status?.State ?? 'UNKNOWN';
      byState[s] = (byState[s] ?? 0) + 1;
    }
    const health = await this.health();
    return {
      ...health,
      workgroup: wg?.Name,
      workgroupState: wg?.State,
      engineVersion: wg?.Configuration?.EngineVersion?.EffectiveEngineVersion,
      bytesScannedCutoffPerQuery: wg?.Configuration?.BytesScannedCutoffPerQuery,
      recentQueriesByState: byState,
      dataScannedBytesRecent: recent.reduce((n, q) => n + (q.Statistics?.DataScannedInBytes ?? 0), 0),
    };
  }
}
