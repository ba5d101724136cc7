// Oracle statement building and result mapping, free of I/O so they are tested without a server: the connect
// string (service name), positional :n binds, plan statements (EXPLAIN PLAN + DBMS_XPLAN), maintenance
// statements, and the mapping of array-format results onto the provider's result shape.
import { randomBytes } from 'node:crypto';
import { quoteStyles } from '../../sql/dialect.js';
import { configError } from '../errors.js';
import { objectTarget, requireTarget, unknownOperation } from '../targets.js';
import type { Capabilities, ExecResult, ParamValue, ResolvedConnection } from '../types.js';
import { arrayResult } from '../values.js';

export const oracleCapabilities: Capabilities = {
  supportsExplain: true,
  explainModes: ['estimate', 'analyze'],
  supportsCreateTable: true,
  supportsInlineRowEdit: true,
  supportsMaintenance: true,
  declaresForeignKeys: true,
  parameterStyle: ':n',
  supportsPositionalParams: true,
  supportsCancel: true,
  supportsTransactions: true,
  maintenanceOperations: [
    {
      type: 'gather_stats',
      targetRequired: true,
      description: 'DBMS_STATS.GATHER_TABLE_STATS on <owner.table>',
    },
    { type: 'rebuild_index', targetRequired: true, description: 'ALTER INDEX <target> REBUILD' },
    { type: 'kill', targetRequired: true, description: "ALTER SYSTEM KILL SESSION '<sid>,<serial#>'" },
  ],
};

/** Easy Connect string host:port/service; `serviceName` wins over `database`. */
export function oracleConnectString(conn: ResolvedConnection): string {
  const d = conn.descriptor;
  if (d.connectionString) return d.connectionString;
  if (!conn.host) throw configError('An Oracle connection needs host or connectionString');
  const service = d.serviceName ?? d.database;
  if (!service) throw configError('An Oracle connection needs serviceName');
  return `${conn.host}:${conn.port ?? 1521}/${service}`;
}

/** Booleans bind as 1/0 (SQL has no BOOLEAN before 23ai); the rest bind as they are, by position. */
export function oracleBinds(params: readonly ParamValue[]): Array<string | number | null> {
  return params.map((p) => (p === true ? 1 : p === false ? 0 : p));
}

export interface OraclePlanStatements {
  statementId: string;
  /** Run in order on one connection; the last one's rows are the plan. */
  steps: string[];
  /** Whether a step executes the user's statement (then the caller rolls back afterwards). */
  executes: boolean;
}

const SELECT_HEAD = /^(\s*(?:--[^\n]*\n|\/\*[\s\S]*?\*\/|\s)*)(SELECT|WITH)\b/i;

export function oraclePlanStatements(
  sql: string,
  mode: 'estimate' | 'analyze',
  id = `portal_${randomBytes(4).toString('hex')}`,
): OraclePlanStatements {
  if (mode === 'estimate') {
    return {
      statementId: id,
      steps: [
        `EXPLAIN PLAN SET STATEMENT_ID = '${id}' FOR ${sql}`,
        `SELECT plan_table_output AS plan FROM TABLE(DBMS_XPLAN.DISPLAY('PLAN_TABLE', '${id}', 'TYPICAL'))`,
      ],
      executes: false,
    };
  }
  // Row-source statistics for this execution only, then the last cursor's plan with actual rows and times.
  const hinted = sql.replace(
    SELECT_HEAD,
    (_m, lead: string, kw: string) => `${lead}${kw} /*+ GATHER_PLAN_STATISTICS */`,
  );
  return {
    statementId: id,
    steps: [
      hinted,
      `SELECT plan_table_output AS plan FROM TABLE(DBMS_XPLAN.DISPLAY_CURSOR(NULL, NULL, 'ALLSTATS LAST'))`,
    ],
    executes: true,
  };
}

export function oracleMaintenance(
  type: string,
  target: string | undefined,
): { sql: string; binds: Array<string | number> } {
  switch (type) {
    case 'gather_stats': {
      const t = requireTarget(type, target);
      const [owner, table] = t.includes('.') ? t.split('.', 2) : [null, t];
      return {
        sql: owner
          ? 'BEGIN DBMS_STATS.GATHER_TABLE_STATS(ownname => :1, tabname => :2); END;'
          : 'BEGIN DBMS_STATS.GATHER_TABLE_STATS(ownname => USER, tabname => :1); END;',
        binds: owner ? [owner.replaceAll('"', ''), table.replaceAll('"', '')] : [table.replaceAll('"', '')],
      };
    }
    case 'rebuild_index':
      return { sql: `ALTER INDEX ${objectTarget(quoteStyles.double, type, target)} REBUILD`, binds: [] };
    case 'kill': {
      const t = requireTarget(type, target);
      const m = /^(\d{1,10}),\s*(\d{1,10})$/.exec(t);
      if (!m) throw configError("Maintenance kill needs '<sid>,<serial#>' as target");
      return { sql: `ALTER SYSTEM KILL SESSION '${m[1]},${m[2]}' IMMEDIATE`, binds: [] };
    }
    default:
      throw unknownOperation(type, oracleCapabilities.maintenanceOperations);
  }
}

/** oracledb array-format result → provider result. */
export function mapOracleResult(
  result: {
    metaData?: Array<{ name: string; dbTypeName?: string }>;
    rows?: unknown[][];
    rowsAffected?: number;
  },
  maxRows: number,
): ExecResult {
  if (!result.metaData) return arrayResult([], [], maxRows, result.rowsAffected ?? 0);
  return arrayResult(
    result.metaData.map((m) => m.name),
    result.rows ?? [],
    maxRows,
    null,
    result.metaData.map((m) => m.dbTypeName ?? 'unknown'),
  );
}

export const ORACLE_OBJECTS = `
SELECT owner AS "schema", object_name AS "name", LOWER(REPLACE(object_type, ' ', '_')) AS "kind", status AS "status"
  FROM all_objects
 WHERE object_type IN ('TABLE', 'VIEW', 'MATERIALIZED VIEW', 'SEQUENCE', 'PROCEDURE', 'FUNCTION', 'PACKAGE')
   AND owner NOT IN ('SYS', 'SYSTEM', 'XDB', 'MDSYS', 'CTXSYS', 'ORDSYS', 'OUTLN', 'DBSNMP', 'APPQOSSYS', 'WMSYS', 'OJVMSYS', 'GSMADMIN_INTERNAL', 'LBACSYS', 'DVSYS', 'AUDSYS', 'ORDDATA', 'OLAPSYS')
   AND (:1 IS NULL OR owner = :1)
 ORDER BY owner, object_name`;

export const ORACLE_COLUMNS = `
SELECT c.column_name AS "name", c.data_type AS "type", c.nullable AS "nullable", c.data_default AS "def",
       CASE WHEN EXISTS (SELECT 1 FROM all_constraints k JOIN all_cons_columns kc ON kc.owner = k.owner AND kc.constraint_name = k.constraint_name
                          WHERE k.constraint_type = 'P' AND k.owner = c.owner AND k.table_name = c.table_name AND kc.column_name = c.column_name)
            THEN 1 ELSE 0 END AS "pk"
  FROM all_tab_columns c WHERE c.owner = :1 AND c.table_name = :2 ORDER BY c.column_id`;

export const ORACLE_HEALTH = `
SELECT (SELECT COUNT(*) FROM v$session WHERE type = 'USER') AS "active",
       (SELECT SUM(bytes) FROM user_segments) AS "bytes",
       (SELECT ROUND((1 - (phy.value / NULLIF(cur.value + con.value, 0))) * 100, 2)
          FROM v$sysstat cur, v$sysstat con, v$sysstat phy
         WHERE cur.name = 'db block gets' AND con.name = 'consistent gets' AND phy.name = 'physical reads') AS "ratio"
  FROM dual`;
