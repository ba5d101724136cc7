// Oracle catalog: the profile, health and monitoring readings, the maintenance statements and the object
// surface (objects, inventory, counts, describe), each read as statements through the provider's `query`
// (so every read is under the query deadline and the engine's error mapping).
import type { Catalog } from '../catalog.js';
import { countBySchemaAndKind, schemaInventory } from '../schema-objects.js';
import type { ConnectionProfile, DatabaseObject, ExecOptions, ExecResult, ParamValue } from '../types.js';
import { prettyBytes } from '../values.js';
import { ORACLE_COLUMNS, ORACLE_HEALTH, ORACLE_OBJECTS, oracleMaintenance } from './statements.js';

/** What the catalog needs of the provider: its statement runner. */
interface Runner {
  query(sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult>;
}

export class OracleCatalog implements Catalog {
  constructor(private readonly runner: Runner) {}

  private async rows(sql: string, params: ParamValue[] = []) {
    return (await this.runner.query(sql, params, { maxRows: 10_000 })).rows;
  }

  async profile(): Promise<ConnectionProfile> {
    const [r] = await this.rows(
      `SELECT (SELECT banner FROM v$version WHERE ROWNUM = 1) AS "v", USER AS "u", SYS_CONTEXT('USERENV', 'DB_NAME') AS "db",
              SYS_CONTEXT('USERENV', 'CURRENT_SCHEMA') AS "s" FROM dual`,
    );
    return {
      engine: 'oracle',
      serverVersion: String(r.v),
      currentUser: String(r.u),
      currentDatabase: String(r.db),
      currentSchema: String(r.s),
    };
  }

  async health() {
    const [h] = await this.rows(ORACLE_HEALTH);
    const sessions = await this.rows(
      `SELECT s.sid AS "pid", s.username AS "user", s.schemaname AS "database", s.status AS "state",
              NVL(q.sql_text, ' ') AS "query", s.last_call_et * 1000 AS "duration"
         FROM v$session s LEFT JOIN v$sql q ON q.sql_id = s.sql_id AND q.child_number = 0
        WHERE s.type = 'USER' AND ROWNUM <= 100`,
    );
    return {
      activeConnections: Number(h.active),
      databaseSize: prettyBytes(Number(h.bytes ?? 0)),
      cacheHitRatio: h.ratio === null ? 'n/a' : `${Number(h.ratio).toFixed(2)}%`,
      slowQueries: [],
      activeSessions: sessions.map((s) => ({
        pid: Number(s.pid),
        user: String(s.user ?? ''),
        database: String(s.database ?? ''),
        state: String(s.state),
        query: String(s.query).trim(),
        duration: Number(s.duration),
      })),
    };
  }
  monitoring = async () => ({ ...(await this.health()) });
  maintenance = (type: string, target: string | undefined) => {
    const m = oracleMaintenance(type, target);
    return this.runner.query(m.sql, m.binds, { maxRows: 0 });
  };

  private toObject(r: Record<string, unknown>): DatabaseObject {
    const o: DatabaseObject = {
      path: [String(r.schema), String(r.name)],
      name: String(r.name),
      kind: String(r.kind),
    };
    if (r.status && r.status !== 'VALID') o.status = String(r.status);
    return o;
  }
  listObjects = async (path: readonly string[] | undefined) =>
    (await this.rows(ORACLE_OBJECTS, [path?.[0] ?? null])).map((r) => this.toObject(r));
  inventory = async () => {
    const res = await this.runner.query(ORACLE_OBJECTS, [null], { maxRows: 10_000 });
    return schemaInventory(
      res.rows.map((r) => this.toObject(r)),
      res.truncated,
    );
  };
  counts = async () => countBySchemaAndKind(await this.listObjects(undefined));
  describe = async (path: readonly string[]) => {
    const [owner, name] =
      path.length >= 2 ? path.slice(-2) : [(await this.profile()).currentSchema ?? '', path[0]];
    const object = (await this.listObjects([owner])).find((o) => o.name === name);
    if (!object) return undefined;
    const columns = await this.rows(ORACLE_COLUMNS, [owner, name]);
    return {
      object,
      columns: columns.map((c) => ({
        name: String(c.name),
        type: String(c.type),
        nullable: c.nullable === 'Y',
        isPrimary: Number(c.pk) === 1,
        ...(c.def !== null ? { defaultValue: String(c.def).trim() } : {}),
      })),
      indexes: [],
      foreignKeys: [],
    };
  };
}
