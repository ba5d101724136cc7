// Users' saved queries and their query history. History is bounded per user: each insert trims the
// owner's oldest entries beyond `historyLimit`, so the table cannot grow without end.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PortalDatabase, QueryHistoryTable, SavedQueryTable } from './schema.js';

export interface SavedQuery {
  id: string;
  name: string;
  sql: string;
  connectionId: string | null;
  description: string | null;
  tags: string[];
  createdAt: string;
  updatedAt: string;
}

export interface SavedQueryInput {
  name: string;
  sql: string;
  connectionId?: string | null;
  description?: string | null;
  tags?: string[];
}

export interface HistoryEntry {
  id: number;
  connectionId: string | null;
  connectionName: string | null;
  sql: string;
  status: 'success' | 'failure';
  rowCount: number | null;
  durationMs: number | null;
  error: string | null;
  executedAt: string;
}

export type HistoryInput = Omit<HistoryEntry, 'id' | 'executedAt'> & { executedAt?: string };

function toQuery(row: SavedQueryTable): SavedQuery {
  return {
    id: row.id,
    name: row.name,
    sql: row.sql,
    connectionId: row.connection_id,
    description: row.description,
    tags: JSON.parse(row.tags) as string[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toHistory(row: Omit<QueryHistoryTable, 'id'> & { id: number }): HistoryEntry {
  return {
    id: row.id,
    connectionId: row.connection_id,
    connectionName: row.connection_name,
    sql: row.sql,
    status: row.status === 'failure' ? 'failure' : 'success',
    rowCount: row.row_count,
    durationMs: row.duration_ms,
    error: row.error,
    executedAt: row.executed_at,
  };
}

export class SavedQueryRepository {
  constructor(
    private readonly db: Kysely<PortalDatabase>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(
    owner: string,
    page: { limit: number; offset: number },
  ): Promise<{ queries: SavedQuery[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('saved_queries')
        .selectAll()
        .where('owner', '=', owner)
        .orderBy('updated_at', 'desc')
        .orderBy('id')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      this.db
        .selectFrom('saved_queries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner', '=', owner)
        .executeTakeFirstOrThrow(),
    ]);
    return { queries: rows.map(toQuery), total: Number(count.n) };
  }

  async get(owner: string, id: string): Promise<SavedQuery | undefined> {
    const row = await this.db
      .selectFrom('saved_queries')
      .selectAll()
      .where('owner', '=', owner)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toQuery(row);
  }

  async create(owner: string, input: SavedQueryInput): Promise<SavedQuery> {
    const at = this.now().toISOString();
    const row: SavedQueryTable = {
      id: randomUUID(),
      owner,
      name: input.name,
      sql: input.sql,
      connection_id: input.connectionId ?? null,
      description: input.description ?? null,
      tags: JSON.stringify(input.tags ?? []),
      created_at: at,
      updated_at: at,
    };
    await this.db.insertInto('saved_queries').values(row).execute();
    return toQuery(row);
  }

  async update(owner: string, id: string, input: SavedQueryInput): Promise<SavedQuery | undefined> {
    const res = await this.db
      .updateTable('saved_queries')
      .set({
        name: input.name,
        sql: input.sql,
        connection_id: input.connectionId ?? null,
        description: input.description ?? null,
        tags: JSON.stringify(input.tags ?? []),
        updated_at: this.now().toISOString(),
      })
      .where('owner', '=', owner)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return undefined;
    return this.get(owner, id);
  }

  async delete(owner: string, id: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom('saved_queries')
      .where('owner', '=', owner)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }
}

export class QueryHistoryRepository {
  constructor(
    private readonly db: Kysely<PortalDatabase>,
    /** Entries kept per user; older ones are dropped as new ones arrive. */
    private readonly historyLimit = 1000,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async add(owner: string, entry: HistoryInput): Promise<HistoryEntry> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('query_history')
        .values({
          owner,
          connection_id: entry.connectionId,
          connection_name: entry.connectionName,
          sql: entry.sql,
          status: entry.status,
          row_count: entry.rowCount,
          duration_ms: entry.durationMs,
          error: entry.error,
          executed_at: entry.executedAt ?? this.now().toISOString(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      // The id of the oldest entry still kept; everything older for this owner goes.
      const boundary = await trx
        .selectFrom('query_history')
        .select('id')
        .where('owner', '=', owner)
        .orderBy('id', 'desc')
        .limit(1)
        .offset(this.historyLimit - 1)
        .executeTakeFirst();
      if (boundary) {
        await trx
          .deleteFrom('query_history')
          .where('owner', '=', owner)
          .where('id', '<', boundary.id)
          .execute();
      }
      return toHistory(row);
    });
  }

  async list(
    owner: string,
    page: { limit: number; offset: number; connectionId?: string },
  ): Promise<{ entries: HistoryEntry[]; total: number }> {
    let rows = this.db.selectFrom('query_history').where('owner', '=', owner);
    if (page.connectionId) rows = rows.where('connection_id', '=', page.connectionId);
    const [list, count] = await Promise.all([
      rows.selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
      rows.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { entries: list.map(toHistory), total: Number(count.n) };
  }

  async clear(owner: string): Promise<number> {
    const res = await this.db.deleteFrom('query_history').where('owner', '=', owner).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
