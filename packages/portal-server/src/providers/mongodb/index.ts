// The MongoDB provider: runs one JSON request (request.ts) on the driver's pool and shapes its answer as the
// spec's query result (documents.ts); the catalog (catalog.ts) answers objects and health. Every read carries
// maxTimeMS = queryTimeout (the server stops it: code 50 → 408) and a comment naming it, so a cancel (or the
// deadline) finds it in currentOp and stops it with killOp. Reads are bounded on the cursor (maxRows + 1
// documents at most are fetched, in batches). `stream` (exports) runs only reading operations and flattens
// nested documents into dotted columns.

import { randomUUID } from 'node:crypto';
import type { MongoClient } from 'mongodb';
import { sessionWithoutTransactions } from '../buffered-results.js';
import { type Catalog, guardedCatalog } from '../catalog.js';
import { withDeadline } from '../deadline.js';
import { ProviderError, queryError, unsupported } from '../errors.js';
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
import { MongoCatalog } from './catalog.js';
import { databaseName, mapMongoError, openClient } from './client.js';
import { bsonToJson, documentsResult, flatten, valuesResult } from './documents.js';
import { mongoCapabilities } from './engine.js';
import { type Doc, isReadOperation, type MongoRequest, parseMongoRequest } from './request.js';

/** Documents fetched per round trip. */
const BATCH = 500;

export class MongoProvider implements Provider {
  readonly engine = 'mongodb' as const;
  readonly capabilities = mongoCapabilities;
  private readonly client: MongoClient;
  private readonly dbName: string;
  private running = 0;
  readonly catalog: Catalog;

  constructor(private readonly conn: ResolvedConnection) {
    this.client = openClient(conn);
    this.dbName = databaseName(conn);
    this.catalog = guardedCatalog(new MongoCatalog(this.client, this.dbName, conn.descriptor.user), (work) =>
      this.guarded(work),
    );
  }

  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw mapMongoError(err, this.conn.queryTimeoutMs);
    }
  }

  private parse(sql: string, params: ParamValue[]): MongoRequest {
    if (params.length > 0)
      throw unsupported('MongoDB requests carry their values inside the JSON; params are not accepted');
    const parsed = parseMongoRequest(sql);
    if (!parsed.ok) throw queryError(parsed.reason);
    return parsed.request;
  }

  /** Stops the operation tagged `tag` with killOp (found in currentOp by its comment). */
  private async kill(tag: string): Promise<void> {
    const admin = this.client.db('admin');
    const ops = await admin.command({ currentOp: 1, 'command.comment': tag });
    for (const op of (ops.inprog ?? []) as Doc[]) {
      if ((op.command as Doc | undefined)?.comment === tag)
        await admin.command({ killOp: 1, op: op.opid as number });
    }
  }

  /** Runs one request; reads fetch at most `limit` documents. */
  private async run(r: MongoRequest, limit: number, tag: string): Promise<ExecResult> {
    const coll = this.client.db(this.dbName).collection(r.collection);
    const o = r.options as Record<string, any>;
    const timing = { maxTimeMS: this.conn.queryTimeoutMs, comment: tag };
    const drain = async (cursor: AsyncIterable<Doc>) => {
      const docs: Doc[] = [];
      for await (const d of cursor) {
        docs.push(d);
        if (docs.length >= limit) break;
      }
      return docs;
    };
    switch (r.operation) {
      case 'find': {
        const cursor = coll.find(r.filter, { ...o, ...timing, batchSize: Math.min(BATCH, limit) });
        try {
          return documentsResult(await drain(cursor), limit - 1);
        } finally {
          await cursor.close().catch(() => undefined);
        }
      }
      case 'findOne': {
        const doc = await coll.findOne(r.filter, { ...o, ...timing });
        return documentsResult(doc ? [doc] : [], limit - 1);
      }
      case 'aggregate': {
        const cursor = coll.aggregate(r.pipeline, { ...o, ...timing, batchSize: Math.min(BATCH, limit) });
        try {
          return documentsResult(await drain(cursor), limit - 1);
        } finally {
          await cursor.close().catch(() => undefined);
        }
      }
      case 'count':
        return valuesResult('count', [await coll.countDocuments(r.filter, { ...o, ...timing })], limit - 1);
      case 'distinct':
        // The column is named by the field path, so masking by field name holds for its values.
        return valuesResult(
          r.field!,
          await coll.distinct(r.field!, r.filter, { ...o, ...timing }),
          limit - 1,
        );
      case 'insertOne':
      case 'insertMany': {
        const res = await coll.insertMany(r.documents, { ...o, comment: tag });
        return affected(res.insertedCount, [
          `inserted _id: ${Object.values(res.insertedIds)
            .map((id) => JSON.stringify(bsonToJson(id)))
            .join(', ')}`,
        ]);
      }
      case 'updateOne':
      case 'updateMany': {
        const fn = r.operation === 'updateOne' ? coll.updateOne.bind(coll) : coll.updateMany.bind(coll);
        const res = await fn(r.filter, r.update as Doc, { ...o, comment: tag });
        return affected(res.modifiedCount, [
          `matched ${res.matchedCount}, modified ${res.modifiedCount}${res.upsertedCount ? `, upserted ${res.upsertedCount}` : ''}`,
        ]);
      }
      case 'deleteOne':
        return affected((await coll.deleteOne(r.filter, { ...o, comment: tag })).deletedCount, []);
      case 'deleteMany':
        return affected((await coll.deleteMany(r.filter, { ...o, comment: tag })).deletedCount, []);
    }
  }

  async query(sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult> {
    const r = this.parse(sql, params);
    const tag = `portal:${randomUUID()}`;
    let cancelled = false;
    const cancel = async () => {
      cancelled = true;
      await this.kill(tag).catch(() => undefined);
    };
    opts.onStart?.(cancel);
    this.running++;
    try {
      return await withDeadline(
        this.guarded(() => this.run(r, opts.maxRows + 1, tag)),
        { timeoutMs: this.conn.queryTimeoutMs, cancel: () => this.kill(tag).catch(() => undefined) },
      );
    } catch (err) {
      if (cancelled && !(err instanceof ProviderError && err.kind === 'timeout'))
        throw new ProviderError('cancelled', 'The operation was cancelled');
      throw err;
    } finally {
      this.running--;
    }
  }

  async explain(): Promise<never> {
    throw unsupported('MongoDB plans are not offered here');
  }

  /** Exports: reading operations only, documents flattened into dotted columns (the union over every row). */
  async *stream(
    sql: string,
    params: ParamValue[],
    opts: { maxRows: number; batchSize: number },
  ): AsyncIterable<StreamBatch> {
    const r = this.parse(sql, params);
    if (!isReadOperation(r.operation)) throw queryError('Only a reading operation can be exported');
    const result = await this.query(sql, [], { maxRows: opts.maxRows });
    const flat = result.rows.map((row) => flatten(row));
    const fields: string[] = [];
    const seen = new Set<string>();
    for (const row of flat)
      for (const k of Object.keys(row))
        if (!seen.has(k)) {
          seen.add(k);
          fields.push(k);
        }
    if (flat.length === 0) return;
    for (let i = 0; i < flat.length; i += opts.batchSize)
      yield {
        fields,
        rows: flat.slice(i, i + opts.batchSize).map((row) => fields.map((f) => row[f] ?? null)),
      };
  }

  async openSession(): Promise<ProviderSession> {
    return sessionWithoutTransactions(
      (sql, params, opts) => this.query(sql, params, opts),
      'MongoDB datasources have no transactions here',
    );
  }

  poolStats() {
    return { total: 10, idle: Math.max(0, 10 - this.running), waiting: 0 };
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }
}

function affected(count: number, warnings: string[]): ExecResult {
  return {
    fields: [],
    rows: [],
    rowCount: count,
    truncated: false,
    ...(warnings.length ? { warnings } : {}),
  };
}

/** Opens the provider (the registry calls this through the engine descriptor, on first use). */
export async function createProvider(conn: ResolvedConnection, _ctx: ProviderContext): Promise<Provider> {
  return new MongoProvider(conn);
}
