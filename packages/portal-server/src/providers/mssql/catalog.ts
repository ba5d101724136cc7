// SQL Server catalog: the profile, health and monitoring readings, the maintenance statements and the object
// surface (objects, inventory, counts, describe), each read as statements through the provider's `query`
// (so every read is under the query deadline and the engine's error mapping).
import type { Catalog } from '../catalog.js';
import { countBySchemaAndKind, schemaInventory } from '../schema-objects.js';
import type { ConnectionProfile, DatabaseObject, ExecOptions, ExecResult, ParamValue } from '../types.js';
import { prettyBytes } from '../values.js';
import {
  MSSQL_COLUMNS,
  MSSQL_FOREIGN_KEYS,
  MSSQL_HEALTH,
  MSSQL_INDEXES,
  MSSQL_OBJECTS,
  MSSQL_SESSIONS,
  MSSQL_SLOW,
  maintenanceStatement,
} from './statements.js';

/** What the catalog needs of the provider: its statement runner. */
interface Runner {
  query(sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult>;
}

export class MssqlCatalog implements Catalog {
  constructor(private readonly runner: Runner) {}

  private async rows(text: string, params: ParamValue[] = []) {
    return (await this.runner.query(text, params, { maxRows: 10_000 })).rows;
  }

  async profile(): Promise<ConnectionProfile> {
    const [r] = await this.rows(
      'SELECT @@VERSION AS v, SUSER_SNAME() AS u, DB_NAME() AS db, SCHEMA_NAME() AS s',
    );
    return {
      engine: 'mssql',
      serverVersion: String(r.v),
      currentUser: String(r.u),
      currentDatabase: String(r.db),
      currentSchema: String(r.s),
    };
  }

  async health() {
    const [h] = await this.rows(MSSQL_HEALTH);
    const sessions = await this.rows(MSSQL_SESSIONS);
    const slow = await this.rows(MSSQL_SLOW).catch(() => []);
    return {
      activeConnections: Number(h.active),
      databaseSize: prettyBytes(Number(h.bytes)),
      cacheHitRatio: h.ratio === null ? 'n/a' : `${Number(h.ratio).toFixed(2)}%`,
      slowQueries: slow.map((s) => ({
        query: String(s.query),
        calls: Number(s.calls),
        avgTime: Number(s.avg),
      })),
      activeSessions: sessions.map((s) => ({
        pid: Number(s.pid),
        user: String(s.user),
        database: String(s.database ?? ''),
        state: String(s.state),
        query: String(s.query),
        duration: Number(s.duration),
      })),
    };
  }
  monitoring = async () => ({ ...(await this.health()) });
  maintenance = (type: string, target: string | undefined) =>
    this.runner.query(maintenanceStatement(type, target), [], { maxRows: 1000 });

  private toObject(r: Record<string, unknown>): DatabaseObject {
    const o: DatabaseObject = {
      path: [String(r.schema), String(r.name)],
      name: String(r.name),
      kind: String(r.kind),
    };
    if (r.kind === 'table' && r.row_count !== null) o.rowCount = Number(r.row_count);
    if (r.kind === 'table' && r.size !== null) o.sizeBytes = Number(r.size);
    return o;
  }
  listObjects = async (path: readonly string[] | undefined) =>
    (await this.rows(MSSQL_OBJECTS, [path?.[0] ?? null])).map((r) => this.toObject(r));
  inventory = async () => {
    const res = await this.runner.query(MSSQL_OBJECTS, [null], { maxRows: 10_000 });
    return schemaInventory(
      res.rows.map((r) => this.toObject(r)),
      res.truncated,
    );
  };
  counts = async () => countBySchemaAndKind(await this.listObjects(undefined));
  describe = async (path: readonly string[]) => {
    const [schema, name] = path.length >= 2 ? path.slice(-2) : ['dbo', path[0]];
    const object = (await this.listObjects([schema])).find((o) => o.name === name);
    if (!object) return undefined;
    const target = `[${schema.replaceAll(']', ']]')}].[${name.replaceAll(']', ']]')}]`;
    const columns = await this.rows(MSSQL_COLUMNS, [target]);
    const idx = await this.rows(MSSQL_INDEXES, [target]);
    const fks = await this.rows(MSSQL_FOREIGN_KEYS, [target]);
    const indexes = new Map<string, { name: string; columns: string[]; unique: boolean }>();
    for (const r of idx) {
      const e = indexes.get(String(r.name)) ?? { name: String(r.name), columns: [], unique: Boolean(r.uniq) };
      e.columns.push(String(r.col));
      indexes.set(e.name, e);
    }
    return {
      object,
      columns: columns.map((c) => ({
        name: String(c.name),
        type: String(c.type),
        nullable: Boolean(c.nullable),
        isPrimary: Number(c.pk) === 1,
        ...(c.def !== null ? { defaultValue: String(c.def) } : {}),
      })),
      indexes: [...indexes.values()],
      foreignKeys: fks.map((f) => ({
        columnName: String(f.col),
        constraintName: String(f.cname),
        referencedPath: [String(f.rschema), String(f.rtable)],
        referencedTable: String(f.rtable),
        referencedColumn: String(f.rcol),
        onUpdate: String(f.upd),
        onDelete: String(f.del),
      })),
    };
  };
}
