// The SQLite-family provider shared by SQLite and libSQL: statements, plans (EXPLAIN QUERY PLAN; SQLite has
// no executed-plan mode), sessions, exports and the catalog over a backend (engine process for files, network client).
import { leadingWords } from '../../sql/split.js';
import { unsupported } from '../errors.js';
import type {
  Capabilities,
  EngineId,
  ExecOptions,
  ExecResult,
  ParamValue,
  Provider,
  ProviderSession,
  StreamBatch,
} from '../types.js';
import { arrayResult } from '../values.js';
import type { RawResult, SqliteBackend } from './backend.js';
import { sqliteCatalog } from './catalog.js';
import { sqliteDialect } from './dialect.js';

const toResult = (r: RawResult, maxRows: number): ExecResult => {
  const res = arrayResult(
    r.fields,
    r.rows,
    maxRows,
    r.changes,
    r.types.map((t) => t || 'ANY'),
  );
  if (r.truncated) res.truncated = true;
  return res;
};

/** ATTACH, DETACH and VACUUM INTO reach other files on the server: privileged callers only. */
export function sqliteGuard(statement: string, access: { privileged: boolean }): string | undefined {
  if (access.privileged) return undefined;
  const [w1] = leadingWords(statement, sqliteDialect, 1);
  if (w1 === 'ATTACH' || w1 === 'DETACH')
    return `${w1} reaches files on the server and is reserved to administrators`;
  if (w1 === 'VACUUM' && /\bINTO\b/i.test(statement))
    return 'VACUUM INTO writes a file on the server and is reserved to administrators';
  return undefined;
}

export class SqliteFamilyProvider implements Provider {
  constructor(
    readonly engine: EngineId,
    readonly capabilities: Capabilities,
    readonly backend: SqliteBackend,
  ) {}

  async query(sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult> {
    return toResult(await this.backend.query(sql, params, opts.maxRows + 1, opts.onStart), opts.maxRows);
  }

  async explain(sql: string, params: ParamValue[], mode: 'estimate' | 'analyze') {
    if (mode !== 'estimate')
      throw unsupported(`${this.engine} has no executed plans; use explain mode estimate`);
    const r = await this.query(`EXPLAIN QUERY PLAN ${sql}`, params, { maxRows: 10_000 });
    return { ...r, explainFormat: 'sqlite-query-plan' };
  }

  async *stream(
    sql: string,
    params: ParamValue[],
    opts: { maxRows: number; batchSize: number },
  ): AsyncIterable<StreamBatch> {
    let sent = 0;
    for await (const batch of this.backend.stream(sql, params, opts.batchSize)) {
      const rows =
        batch.rows.length + sent > opts.maxRows ? batch.rows.slice(0, opts.maxRows - sent) : batch.rows;
      sent += rows.length;
      yield { fields: batch.fields, columnTypes: batch.types, rows };
      if (sent >= opts.maxRows) break;
    }
  }

  async openSession(): Promise<ProviderSession> {
    const s = await this.backend.openSession();
    const run = async (sql: string) => {
      await s.query(sql, [], 0);
    };
    return {
      query: async (sql, params, opts) =>
        toResult(await s.query(sql, params, opts.maxRows + 1, opts.onStart), opts.maxRows),
      begin: () => run('BEGIN'),
      commit: () => run('COMMIT'),
      rollback: () => run('ROLLBACK'),
      close: () => s.close(),
    };
  }

  connections(): number {
    return this.backend.connections();
  }

  catalog = sqliteCatalog(this);

  poolStats() {
    const n = this.backend.connections();
    return { total: n, idle: 0, waiting: 0 };
  }

  close(): Promise<void> {
    return this.backend.close();
  }
}

export function sqliteFamilyCapabilities(maintenance: Capabilities['maintenanceOperations']): Capabilities {
  return {
    supportsExplain: true,
    explainModes: ['estimate'],
    supportsCreateTable: true,
    supportsInlineRowEdit: true,
    supportsMaintenance: true,
    declaresForeignKeys: true,
    parameterStyle: '?',
    supportsPositionalParams: true,
    supportsCancel: true,
    supportsTransactions: true,
    maintenanceOperations: maintenance,
  };
}
