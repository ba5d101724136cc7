// SQL Server and Oracle have no server here: their statement building (driver configuration, parameters,
// plans, maintenance, auto-limit clauses) and result mapping are verified without one; so are the error
// classes a driver error maps to.
import { describe, expect, it } from 'vitest';
import { mapMssqlError } from '../../src/providers/mssql/index.js';
import {
  bindParams,
  explainBatches,
  maintenanceStatement,
  mapMssqlResult,
  mssqlCapabilities,
  mssqlConfig,
} from '../../src/providers/mssql/statements.js';
import { mapOracleError } from '../../src/providers/oracle/index.js';
import {
  mapOracleResult,
  oracleBinds,
  oracleCapabilities,
  oracleConnectString,
  oracleMaintenance,
  oraclePlanStatements,
} from '../../src/providers/oracle/statements.js';
import { sqlDialect } from '../../src/providers/registry.js';
import type { ResolvedConnection } from '../../src/providers/types.js';
import { planLimit } from '../../src/sql/limit.js';

const resolved = (d: Record<string, unknown>): ResolvedConnection => ({
  descriptor: { id: 'x', type: 'mssql', ...d },
  queryTimeoutMs: 1234,
  connectTimeoutMs: 10000,
  host: d.host as string | undefined,
  port: d.port as number | undefined,
});

describe('SQL Server statement building', () => {
  it('configures the driver: named instance without a port, TLS from ssl, timeouts', () => {
    const plain = mssqlConfig(resolved({ host: 'db', user: 'sa', password: 'pw', database: 'app' }));
    expect(plain).toMatchObject({
      server: 'db',
      port: 1433,
      user: 'sa',
      password: 'pw',
      database: 'app',
      requestTimeout: 1234,
      connectionTimeout: 10000,
      arrayRowMode: true,
      options: { encrypt: false, trustServerCertificate: true, appName: 'database-portal' },
    });
    const named = mssqlConfig(
      resolved({ host: 'db', instanceName: 'SQLEXPRESS', ssl: { mode: 'verify-full' } }),
    );
    expect(named.port).toBeUndefined();
    expect(named.options).toMatchObject({
      instanceName: 'SQLEXPRESS',
      encrypt: true,
      trustServerCertificate: false,
    });
    expect(mssqlConfig(resolved({ host: 'db', ssl: true })).options).toMatchObject({
      encrypt: true,
      trustServerCertificate: true,
    });
    expect(() => mssqlConfig(resolved({}))).toThrow(/host/);
  });

  it('binds positional parameters as @p1..@pN', () => {
    expect(bindParams(["it's", 2, null, true])).toEqual([
      { name: 'p1', value: "it's" },
      { name: 'p2', value: 2 },
      { name: 'p3', value: null },
      { name: 'p4', value: true },
    ]);
    expect(mssqlCapabilities.parameterStyle).toBe('@pn');
  });

  it('builds plans and maintenance statements', () => {
    expect(explainBatches('SELECT 1', 'estimate')).toEqual({
      before: 'SET SHOWPLAN_XML ON',
      statement: 'SELECT 1',
      after: 'SET SHOWPLAN_XML OFF',
    });
    expect(explainBatches('SELECT 1', 'analyze').before).toBe('SET STATISTICS XML ON');
    expect(maintenanceStatement('update_statistics', 'dbo.orders')).toBe('UPDATE STATISTICS [dbo].[orders]');
    expect(maintenanceStatement('rebuild_indexes', 'dbo.t]x')).toBe(
      'ALTER INDEX ALL ON [dbo].[t]]x] REBUILD',
    );
    expect(maintenanceStatement('kill', '53')).toBe('KILL 53');
    expect(() => maintenanceStatement('kill', '53; DROP TABLE x')).toThrow();
    expect(() => maintenanceStatement('update_statistics', undefined)).toThrow(/target/);
    expect(() => maintenanceStatement('vacuum', 't')).toThrow(/Unknown maintenance/);
  });

  it('limits with OFFSET/FETCH, adding ORDER BY (SELECT NULL) when there is none', async () => {
    expect((await planLimit(sqlDialect('mssql'), 'SELECT id FROM dbo.t', 10, 20)).sql).toBe(
      'SELECT id FROM dbo.t\nORDER BY (SELECT NULL) OFFSET 20 ROWS FETCH NEXT 11 ROWS ONLY',
    );
  });

  it('maps array-mode record sets and affected rows', () => {
    const r = mapMssqlResult(
      {
        recordsets: [
          [
            [1, 'a'],
            [2, 'b'],
            [3, 'c'],
          ],
        ],
        columns: [
          [
            { name: 'id', type: { declaration: 'int' } },
            { name: 'id', type: { declaration: 'nvarchar' } },
          ],
        ],
        rowsAffected: [3],
      },
      2,
    );
    expect(r).toEqual({
      fields: ['id', 'id (2)'],
      rows: [
        { id: 1, 'id (2)': 'a' },
        { id: 2, 'id (2)': 'b' },
      ],
      rowCount: 2,
      truncated: true,
      columnTypes: { id: 'int', 'id (2)': 'nvarchar' },
    });
    expect(mapMssqlResult({ recordsets: [], rowsAffected: [2, 3] }, 10)).toEqual({
      fields: [],
      rows: [],
      rowCount: 5,
      truncated: false,
    });
  });

  it('maps driver errors onto the provider classes', () => {
    expect(
      mapMssqlError({ code: 'ETIMEOUT', message: 'Timeout: Request failed to complete in 1234ms' }, 1234)
        .kind,
    ).toBe('timeout');
    expect(
      mapMssqlError({ code: 'ETIMEOUT', message: 'Failed to connect to db:1433 in 10000ms' }, 1234).kind,
    ).toBe('connection');
    expect(mapMssqlError({ code: 'ECANCEL', message: 'Canceled.' }, 1).kind).toBe('cancelled');
    expect(mapMssqlError({ code: 'ELOGIN', message: "Login failed for user 'sa'." }, 1).kind).toBe(
      'authentication',
    );
    const q = mapMssqlError({ code: 'EREQUEST', message: "Invalid object name 'nope'." }, 1);
    expect([q.kind, q.message]).toEqual(['query', "Invalid object name 'nope'."]);
  });
});

describe('Oracle statement building', () => {
  it('builds the Easy Connect string from serviceName', () => {
    expect(oracleConnectString(resolved({ host: 'ora', serviceName: 'FREEPDB1' }))).toBe('ora:1521/FREEPDB1');
    expect(oracleConnectString(resolved({ host: 'ora', port: 1522, database: 'ORCL' }))).toBe(
      'ora:1522/ORCL',
    );
    expect(oracleConnectString(resolved({ connectionString: 'tcps://h:2484/s' }))).toBe('tcps://h:2484/s');
    expect(() => oracleConnectString(resolved({ host: 'ora' }))).toThrow(/serviceName/);
  });

  it('binds by position, booleans as 1/0', () => {
    expect(oracleBinds(['a', 1, true, false, null])).toEqual(['a', 1, 1, 0, null]);
    expect(oracleCapabilities.parameterStyle).toBe(':n');
  });

  it('builds EXPLAIN PLAN and DBMS_XPLAN statements', () => {
    const est = oraclePlanStatements('SELECT * FROM t WHERE id = :1', 'estimate', 'p1');
    expect(est).toEqual({
      statementId: 'p1',
      steps: [
        "EXPLAIN PLAN SET STATEMENT_ID = 'p1' FOR SELECT * FROM t WHERE id = :1",
        "SELECT plan_table_output AS plan FROM TABLE(DBMS_XPLAN.DISPLAY('PLAN_TABLE', 'p1', 'TYPICAL'))",
      ],
      executes: false,
    });
    const an = oraclePlanStatements('/* c */ select * from t', 'analyze', 'p2');
    expect(an.steps[0]).toBe('/* c */ select /*+ GATHER_PLAN_STATISTICS */ * from t');
    expect(an.steps[1]).toContain("DBMS_XPLAN.DISPLAY_CURSOR(NULL, NULL, 'ALLSTATS LAST')");
    expect(an.executes).toBe(true);
  });

  it('builds maintenance statements with bound or validated targets', () => {
    expect(oracleMaintenance('gather_stats', 'HR.EMPLOYEES')).toEqual({
      sql: 'BEGIN DBMS_STATS.GATHER_TABLE_STATS(ownname => :1, tabname => :2); END;',
      binds: ['HR', 'EMPLOYEES'],
    });
    expect(oracleMaintenance('kill', '123, 4567').sql).toBe("ALTER SYSTEM KILL SESSION '123,4567' IMMEDIATE");
    expect(() => oracleMaintenance('kill', "1,2' --")).toThrow();
    expect(oracleMaintenance('rebuild_index', 'hr.emp_ix').sql).toBe('ALTER INDEX "hr"."emp_ix" REBUILD');
  });

  it('limits with OFFSET/FETCH (12c+)', async () => {
    expect((await planLimit(sqlDialect('oracle'), 'SELECT * FROM t', 500, 0)).sql).toBe(
      'SELECT * FROM t\nOFFSET 0 ROWS FETCH NEXT 501 ROWS ONLY',
    );
  });

  it('maps array-format results and affected rows', () => {
    expect(
      mapOracleResult(
        {
          metaData: [
            { name: 'ID', dbTypeName: 'NUMBER' },
            { name: 'CREATED', dbTypeName: 'DATE' },
          ],
          rows: [[1, new Date('2024-01-02T00:00:00Z')]],
        },
        10,
      ),
    ).toEqual({
      fields: ['ID', 'CREATED'],
      rows: [{ ID: 1, CREATED: '2024-01-02T00:00:00.000Z' }],
      rowCount: 1,
      truncated: false,
      columnTypes: { ID: 'NUMBER', CREATED: 'DATE' },
    });
    expect(mapOracleResult({ rowsAffected: 4 }, 10)).toEqual({
      fields: [],
      rows: [],
      rowCount: 4,
      truncated: false,
    });
  });

  it('maps driver errors onto the provider classes', () => {
    expect(mapOracleError({ message: 'NJS-123: call timeout of 1234 ms exceeded' }, 1234).kind).toBe(
      'timeout',
    );
    expect(
      mapOracleError({ errorNum: 1013, message: 'ORA-01013: user requested cancel of current operation' }, 1)
        .kind,
    ).toBe('cancelled');
    expect(
      mapOracleError({ errorNum: 1017, message: 'ORA-01017: invalid credential or not authorized' }, 1).kind,
    ).toBe('authentication');
    expect(
      mapOracleError({ message: 'NJS-503: connection to host ora port 1521 could not be established' }, 1)
        .kind,
    ).toBe('connection');
    expect(
      mapOracleError({ errorNum: 942, message: 'ORA-00942: table or view does not exist' }, 1).kind,
    ).toBe('query');
  });
});
