// SQL Server statement building and result mapping, kept free of I/O so they are tested without a server:
// the driver configuration (named instances, TLS), positional @pN parameters, plan batches, maintenance
// statements and the mapping of array-mode record sets onto the provider's result shape.
import { quoteStyles } from '../../sql/dialect.js';
import { quoteQualified } from '../../sql/quote.js';
import { configError } from '../errors.js';
import { normalizeSsl } from '../ssl.js';
import { integerTarget, objectTarget, unknownOperation } from '../targets.js';
import type { Capabilities, ExecResult, ParamValue, ResolvedConnection } from '../types.js';
import { arrayResult } from '../values.js';

export const mssqlCapabilities: Capabilities = {
  supportsExplain: true,
  explainModes: ['estimate', 'analyze'],
  supportsCreateTable: true,
  supportsInlineRowEdit: true,
  supportsMaintenance: true,
  declaresForeignKeys: true,
  parameterStyle: '@pn',
  supportsPositionalParams: true,
  supportsCancel: true,
  supportsTransactions: true,
  maintenanceOperations: [
    { type: 'update_statistics', targetRequired: true, description: 'UPDATE STATISTICS <target>' },
    { type: 'rebuild_indexes', targetRequired: true, description: 'ALTER INDEX ALL ON <target> REBUILD' },
    { type: 'checkdb', targetRequired: false, description: 'DBCC CHECKDB WITH NO_INFOMSGS' },
    { type: 'kill', targetRequired: true, description: 'KILL <session id>' },
  ],
};

export interface MssqlConfig {
  server: string;
  port?: number;
  user?: string;
  password?: string;
  database?: string;
  connectionTimeout: number;
  requestTimeout: number;
  arrayRowMode: true;
  options: {
    instanceName?: string;
    encrypt: boolean;
    trustServerCertificate: boolean;
    appName: string;
    useUTC: boolean;
  };
  pool: { max: number; min: number; idleTimeoutMillis: number };
}

/** Driver configuration. A named instance is reached through the browser service, so no port is sent. */
export function mssqlConfig(conn: ResolvedConnection): MssqlConfig {
  const d = conn.descriptor;
  if (!conn.host) throw configError('A SQL Server connection needs host');
  const ssl = normalizeSsl(d.ssl);
  return {
    server: conn.host,
    ...(d.instanceName ? {} : { port: conn.port ?? 1433 }),
    ...(d.user ? { user: d.user } : {}),
    ...(d.password !== undefined ? { password: d.password } : {}),
    ...(d.database ? { database: d.database } : {}),
    connectionTimeout: conn.connectTimeoutMs,
    requestTimeout: conn.queryTimeoutMs,
    arrayRowMode: true,
    options: {
      ...(d.instanceName ? { instanceName: d.instanceName } : {}),
      encrypt: ssl !== undefined,
      trustServerCertificate: ssl ? ssl.mode === 'require' : true,
      appName: 'database-portal',
      useUTC: true,
    },
    pool: { max: 10, min: 0, idleTimeoutMillis: 60_000 },
  };
}

/** Positional parameters become named inputs @p1..@pN (the placeholder style the provider announces). */
export function bindParams(params: readonly ParamValue[]): Array<{ name: string; value: ParamValue }> {
  return params.map((value, i) => ({ name: `p${i + 1}`, value }));
}

/** Plan batches: SHOWPLAN_XML compiles without running; STATISTICS XML runs (inside a rolled-back transaction). */
export function explainBatches(
  sql: string,
  mode: 'estimate' | 'analyze',
): { before: string; statement: string; after: string } {
  return mode === 'estimate'
    ? { before: 'SET SHOWPLAN_XML ON', statement: sql, after: 'SET SHOWPLAN_XML OFF' }
    : { before: 'SET STATISTICS XML ON', statement: sql, after: 'SET STATISTICS XML OFF' };
}

export function maintenanceStatement(type: string, target: string | undefined): string {
  switch (type) {
    case 'update_statistics':
      return `UPDATE STATISTICS ${objectTarget(quoteStyles.bracket, type, target)}`;
    case 'rebuild_indexes':
      return `ALTER INDEX ALL ON ${objectTarget(quoteStyles.bracket, type, target)} REBUILD`;
    case 'checkdb':
      return 'DBCC CHECKDB WITH NO_INFOMSGS';
    case 'kill':
      return `KILL ${integerTarget(type, target)}`;
    default:
      throw unknownOperation(type, mssqlCapabilities.maintenanceOperations);
  }
}

export function qualified(target: string): string {
  return quoteQualified({ quote: quoteStyles.bracket }, target);
}

interface ColumnMeta {
  name: string;
  type?: { declaration?: string; name?: string };
}

/**
 * Array-mode result → provider result. The last record set is the answer (a batch may emit several); with
 * no record set the statement's affected rows are the count.
 */
export function mapMssqlResult(
  result: { recordsets?: unknown[][][] | unknown; columns?: ColumnMeta[][]; rowsAffected?: number[] },
  maxRows: number,
): ExecResult {
  const sets = (Array.isArray(result.recordsets) ? result.recordsets : []) as unknown[][][];
  const columns = result.columns ?? [];
  const affected = (result.rowsAffected ?? []).reduce((a, b) => a + b, 0);
  if (sets.length === 0 || columns.length === 0) return arrayResult([], [], maxRows, affected);
  const i = sets.length - 1;
  const cols = columns[i] ?? [];
  return arrayResult(
    cols.map((c) => c.name),
    sets[i],
    maxRows,
    null,
    cols.map((c) => c.type?.declaration ?? c.type?.name ?? 'unknown'),
  );
}

export const MSSQL_OBJECTS = `
SELECT s.name AS [schema], o.name AS name,
       CASE o.type WHEN 'U' THEN 'table' WHEN 'V' THEN 'view' WHEN 'P' THEN 'procedure'
                   WHEN 'FN' THEN 'function' WHEN 'IF' THEN 'function' WHEN 'TF' THEN 'function' WHEN 'SO' THEN 'sequence' END AS kind,
       (SELECT SUM(p.rows) FROM sys.partitions p WHERE p.object_id = o.object_id AND p.index_id IN (0, 1)) AS row_count,
       (SELECT SUM(a.total_pages) * 8192 FROM sys.partitions p JOIN sys.allocation_units a ON a.container_id = p.partition_id
         WHERE p.object_id = o.object_id) AS size
  FROM sys.objects o JOIN sys.schemas s ON s.schema_id = o.schema_id
 WHERE o.type IN ('U', 'V', 'P', 'FN', 'IF', 'TF', 'SO') AND o.is_ms_shipped = 0
   AND (@p1 IS NULL OR s.name = @p1)
 ORDER BY s.name, o.name`;

export const MSSQL_COLUMNS = `
SELECT c.name, TYPE_NAME(c.user_type_id) AS type, c.is_nullable AS nullable,
       CASE WHEN EXISTS (SELECT 1 FROM sys.index_columns ic JOIN sys.indexes i ON i.object_id = ic.object_id AND i.index_id = ic.index_id
                          WHERE i.is_primary_key = 1 AND ic.object_id = c.object_id AND ic.column_id = c.column_id) THEN 1 ELSE 0 END AS pk,
       OBJECT_DEFINITION(c.default_object_id) AS def
  FROM sys.columns c WHERE c.object_id = OBJECT_ID(@p1) ORDER BY c.column_id`;

export const MSSQL_INDEXES = `
SELECT i.name, i.is_unique AS uniq, col.name AS col
  FROM sys.indexes i JOIN sys.index_columns ic ON ic.object_id = i.object_id AND ic.index_id = i.index_id
  JOIN sys.columns col ON col.object_id = ic.object_id AND col.column_id = ic.column_id
 WHERE i.object_id = OBJECT_ID(@p1) AND i.name IS NOT NULL ORDER BY i.name, ic.key_ordinal`;

export const MSSQL_FOREIGN_KEYS = `
SELECT fk.name AS cname, pc.name AS col, SCHEMA_NAME(rt.schema_id) AS rschema, rt.name AS rtable, rc.name AS rcol,
       fk.update_referential_action_desc AS upd, fk.delete_referential_action_desc AS del
  FROM sys.foreign_keys fk JOIN sys.foreign_key_columns fkc ON fkc.constraint_object_id = fk.object_id
  JOIN sys.columns pc ON pc.object_id = fkc.parent_object_id AND pc.column_id = fkc.parent_column_id
  JOIN sys.tables rt ON rt.object_id = fkc.referenced_object_id
  JOIN sys.columns rc ON rc.object_id = fkc.referenced_object_id AND rc.column_id = fkc.referenced_column_id
 WHERE fk.parent_object_id = OBJECT_ID(@p1) ORDER BY fk.name, fkc.constraint_column_id`;

export const MSSQL_HEALTH = `
SELECT (SELECT COUNT(*) FROM sys.dm_exec_sessions WHERE is_user_process = 1) AS active,
       (SELECT SUM(CAST(size AS bigint)) * 8192 FROM sys.database_files) AS bytes,
       (SELECT CAST(a.cntr_value AS float) / NULLIF(b.cntr_value, 0) * 100
          FROM sys.dm_os_performance_counters a JOIN sys.dm_os_performance_counters b ON a.object_name = b.object_name
         WHERE a.counter_name = 'Buffer cache hit ratio' AND b.counter_name = 'Buffer cache hit ratio base') AS ratio`;

export const MSSQL_SESSIONS = `
SELECT TOP 100 s.session_id AS pid, s.login_name AS [user], DB_NAME(s.database_id) AS [database], s.status AS state,
       COALESCE(t.text, '') AS query, COALESCE(r.total_elapsed_time, 0) AS duration
  FROM sys.dm_exec_sessions s LEFT JOIN sys.dm_exec_requests r ON r.session_id = s.session_id
  OUTER APPLY sys.dm_exec_sql_text(r.sql_handle) t
 WHERE s.is_user_process = 1 AND s.session_id <> @@SPID ORDER BY duration DESC`;

export const MSSQL_SLOW = `
SELECT TOP 10 SUBSTRING(t.text, 1, 4000) AS query, qs.execution_count AS calls,
       CAST(qs.total_elapsed_time / 1000.0 / qs.execution_count AS decimal(18, 2)) AS avg
  FROM sys.dm_exec_query_stats qs CROSS APPLY sys.dm_exec_sql_text(qs.sql_handle) t ORDER BY avg DESC`;
