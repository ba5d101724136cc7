// An Athena test double: a loopback HTTP server speaking the AWS JSON 1.1 protocol the Athena API uses
// (POST /, `X-Amz-Target: AmazonAthena.<Operation>`, JSON bodies, errors as `{__type, Message}` with
// `x-amzn-ErrorType`). Jobs: StartQueryExecution evaluates a tiny SQL subset over in-memory tables (text
// values, Athena's type names), the job is QUEUED, then RUNNING, then SUCCEEDED or FAILED over successive
// GetQueryExecution polls; GetQueryResults pages with MaxResults/NextToken and puts the header row first on
// a SELECT's first page; `SELECT … FROM slow` stays RUNNING until StopQueryExecution. Presto's grammar rule
// that OFFSET precedes LIMIT and Hive DDL's backticks are enforced. The metadata catalog (ListDatabases,
// ListTableMetadata with paging, GetTableMetadata), GetWorkGroup, ListQueryExecutions and
// BatchGetQueryExecution answer from the same state. The access key id in the SigV4 Authorization header
// must match (the signature itself is not verified). No Athena exists offline, so the portal's serverless
// engine is verified against this double (docs/portal-engines.md).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface AthenaTable {
  columns: Array<{ name: string; type: string }>;
  partitionKeys?: Array<{ name: string; type: string }>;
  rows: Array<Array<string | null>>;
  view?: boolean;
}

interface Execution {
  id: string;
  query: string;
  database?: string;
  workgroup: string;
  polls: number;
  state: 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  stays?: boolean;
  error?: string;
  statementType: 'DML' | 'DDL' | 'UTILITY';
  substatementType: string;
  columns: Array<{ name: string; type: string }>;
  rows: Array<Array<string | null>>;
  updateCount?: number;
  submitted: number;
}

export interface AthenaDouble {
  url: string;
  databases: Map<string, Map<string, AthenaTable>>;
  executions: Map<string, Execution>;
  /** Every query text received, in order. */
  queries: string[];
  close(): Promise<void>;
}

class AwsError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const IDENT = String.raw`(?:"(?:[^"]|"")+"|\x60[^\x60]+\x60|[A-Za-z_][A-Za-z0-9_]*)`;
const unquote = (s: string) =>
  s
    .replace(/^"(.*)"$/, '$1')
    .replaceAll('""', '"')
    .replace(/^`(.*)`$/, '$1')
    .toLowerCase();

export async function startAthenaDouble(options: { accessKeyId: string }): Promise<AthenaDouble> {
  const databases = new Map<string, Map<string, AthenaTable>>();
  const executions = new Map<string, Execution>();
  const queries: string[] = [];

  function table(db: string | undefined, name: string): AthenaTable {
    const t = db ? databases.get(db)?.get(name) : undefined;
    if (!t) throw new Error(`line 1:15: Table 'awsdatacatalog.${db}.${name}' does not exist`);
    return t;
  }

  /** Evaluates a statement; throws an Error whose message becomes the job's StateChangeReason. */
  function evaluate(e: Execution): void {
    const sql = e.query.trim().replace(/;\s*$/, '');
    if (/\bLIMIT\s+\d+\s+OFFSET\b/i.test(sql))
      throw new Error("line 1:1: mismatched input 'OFFSET'. Expecting: <EOF>");
    const ddl = /^(CREATE|DROP|ALTER|MSCK|SHOW|DESCRIBE)\b/i.exec(sql);
    if (ddl) {
      e.statementType = 'DDL';
      e.substatementType = ddl[1].toUpperCase();
      if (sql.includes('"'))
        throw new Error(`line 1:12: mismatched input '"'. Expecting: <identifier> (DDL uses backticks)`);
      const drop = new RegExp(`^DROP TABLE (?:IF EXISTS )?(?:(${IDENT})\\.)?(${IDENT})$`, 'i').exec(sql);
      if (!drop) throw new Error('line 1:1: only DROP TABLE is evaluated by the double');
      const db = drop[1] ? unquote(drop[1]) : e.database;
      if (!db || !databases.get(db)?.delete(unquote(drop[2]))) throw new Error(`Table not found ${drop[2]}`);
      return;
    }
    const insert = new RegExp(`^INSERT INTO (?:(${IDENT})\\.)?(${IDENT}) VALUES (.*)$`, 'is').exec(sql);
    if (insert) {
      e.substatementType = 'INSERT';
      const t = table(insert[1] ? unquote(insert[1]) : e.database, unquote(insert[2]));
      const tuples = [...insert[3].matchAll(/\(([^)]*)\)/g)].map((m) =>
        m[1].split(',').map((v) => {
          const x = v.trim();
          return x.toUpperCase() === 'NULL' ? null : x.replace(/^'(.*)'$/, '$1').replaceAll("''", "'");
        }),
      );
      t.rows.push(...tuples);
      e.updateCount = tuples.length;
      return;
    }
    const select = new RegExp(
      `^SELECT (.+?) FROM (?:(${IDENT})\\.)?(${IDENT})(?: WHERE (${IDENT}) = ('(?:[^']|'')*'|-?\\d+))?(?: OFFSET (\\d+))?(?: LIMIT (\\d+))?$`,
      'is',
    ).exec(sql.replace(/\s+/g, ' '));
    if (!select) throw new Error("line 1:1: mismatched input. Expecting: 'SELECT', 'INSERT', 'DROP'");
    e.substatementType = 'SELECT';
    const name = unquote(select[3]);
    if (name === 'slow') {
      e.stays = true;
      e.columns = [{ name: 'x', type: 'integer' }];
      return;
    }
    const t = table(select[2] ? unquote(select[2]) : e.database, name);
    const all = [...t.columns, ...(t.partitionKeys ?? [])];
    const picks =
      select[1].trim() === '*'
        ? all.map((c) => ({ c, label: c.name }))
        : select[1].split(',').map((p) => {
            const [expr, alias] = p.trim().split(/\s+AS\s+/i);
            const c = all.find((x) => x.name === unquote(expr));
            if (!c) throw new Error(`line 1:8: Column '${unquote(expr)}' cannot be resolved`);
            return { c, label: alias ? unquote(alias) : c.name };
          });
    let rows = t.rows;
    if (select[4]) {
      const k = all.findIndex((c) => c.name === unquote(select[4]));
      const v = select[5].replace(/^'(.*)'$/, '$1').replaceAll("''", "'");
      rows = rows.filter((r) => r[k] === v);
    }
    const offset = Number(select[6] ?? 0);
    rows = rows.slice(offset, select[7] ? offset + Number(select[7]) : undefined);
    e.columns = picks.map((p) => ({ name: p.label, type: p.c.type }));
    e.rows = rows.map((r) => picks.map((p) => r[all.indexOf(p.c)] ?? null));
  }

  function view(e: Execution) {
    return {
      QueryExecutionId: e.id,
      Query: e.query,
      StatementType: e.statementType,
      SubstatementType: e.substatementType,
      WorkGroup: e.workgroup,
      ...(e.database ? { QueryExecutionContext: { Database: e.database, Catalog: 'awsdatacatalog' } } : {}),
      Status: {
        State: e.state,
        SubmissionDateTime: e.submitted / 1000,
        ...(e.error ? { StateChangeReason: e.error } : {}),
      },
      Statistics: {
        EngineExecutionTimeInMillis: 10 + e.rows.length,
        DataScannedInBytes: 100 * e.rows.length,
      },
    };
  }

  const ops: Record<string, (b: Record<string, unknown>) => unknown> = {
    StartQueryExecution(b) {
      const wg = String(b.WorkGroup ?? 'primary');
      if (wg !== 'primary' && wg !== 'analytics')
        throw new AwsError('InvalidRequestException', `WorkGroup ${wg} is not found.`);
      const ctx = b.QueryExecutionContext as { Database?: string } | undefined;
      const e: Execution = {
        id: randomUUID(),
        query: String(b.QueryString ?? ''),
        database: ctx?.Database,
        workgroup: wg,
        polls: 0,
        state: 'QUEUED',
        statementType: 'DML',
        substatementType: 'SELECT',
        columns: [],
        rows: [],
        submitted: Date.now(),
      };
      queries.push(e.query);
      try {
        evaluate(e);
      } catch (err) {
        e.error = (err as Error).message;
      }
      executions.set(e.id, e);
      return { QueryExecutionId: e.id };
    },
    GetQueryExecution(b) {
      const e = executions.get(String(b.QueryExecutionId));
      if (!e) throw new AwsError('InvalidRequestException', 'QueryExecution was not found');
      // QUEUED → RUNNING → settled, one step per poll (the slow query stays RUNNING until stopped).
      if (e.state === 'QUEUED') e.state = 'RUNNING';
      else if (e.state === 'RUNNING' && !e.stays) e.state = e.error ? 'FAILED' : 'SUCCEEDED';
      return { QueryExecution: view(e) };
    },
    StopQueryExecution(b) {
      const e = executions.get(String(b.QueryExecutionId));
      if (!e) throw new AwsError('InvalidRequestException', 'QueryExecution was not found');
      if (e.state === 'QUEUED' || e.state === 'RUNNING') e.state = 'CANCELLED';
      return {};
    },
    GetQueryResults(b) {
      const e = executions.get(String(b.QueryExecutionId));
      if (!e) throw new AwsError('InvalidRequestException', 'QueryExecution was not found');
      if (e.state !== 'SUCCEEDED')
        throw new AwsError(
          'InvalidRequestException',
          `Query has not yet finished. Current state: ${e.state}`,
        );
      const select = e.statementType === 'DML' && e.substatementType === 'SELECT';
      const all = select ? [e.columns.map((c) => c.name), ...e.rows] : e.rows;
      const from = b.NextToken ? Number(b.NextToken) : 0;
      const size = Math.min(Number(b.MaxResults ?? 1000), 1000);
      const page = all.slice(from, from + size);
      return {
        ResultSet: {
          Rows: page.map((r) => ({ Data: r.map((v) => (v === null ? {} : { VarCharValue: v })) })),
          ResultSetMetadata: {
            ColumnInfo: e.columns.map((c) => ({
              CatalogName: 'hive',
              Name: c.name,
              Label: c.name,
              Type: c.type,
              Nullable: 'UNKNOWN',
            })),
          },
        },
        ...(from + size < all.length ? { NextToken: String(from + size) } : {}),
        ...(e.updateCount !== undefined ? { UpdateCount: e.updateCount } : {}),
      };
    },
    ListDatabases(b) {
      if (b.CatalogName !== 'AwsDataCatalog') throw new AwsError('MetadataException', 'Catalog not found');
      return { DatabaseList: [...databases.keys()].map((Name) => ({ Name })) };
    },
    ListTableMetadata(b) {
      const db = databases.get(String(b.DatabaseName));
      if (!db) throw new AwsError('MetadataException', `Database ${b.DatabaseName} not found`);
      const list = [...db.entries()];
      const from = b.NextToken ? Number(b.NextToken) : 0;
      const page = list.slice(from, from + 2); // two per page, so the catalog's paging is exercised
      return {
        TableMetadataList: page.map(([Name, t]) => ({
          Name,
          TableType: t.view ? 'VIRTUAL_VIEW' : 'EXTERNAL_TABLE',
        })),
        ...(from + 2 < list.length ? { NextToken: String(from + 2) } : {}),
      };
    },
    GetTableMetadata(b) {
      const t = databases.get(String(b.DatabaseName))?.get(String(b.TableName));
      if (!t) throw new AwsError('MetadataException', `Table ${b.TableName} not found`);
      const col = (c: { name: string; type: string }) => ({ Name: c.name, Type: c.type });
      return {
        TableMetadata: {
          Name: b.TableName,
          TableType: t.view ? 'VIRTUAL_VIEW' : 'EXTERNAL_TABLE',
          Columns: t.columns.map(col),
          PartitionKeys: (t.partitionKeys ?? []).map(col),
          Parameters: { location: `s3://bucket/${b.DatabaseName}/${b.TableName}/` },
        },
      };
    },
    GetWorkGroup(b) {
      if (b.WorkGroup !== 'primary' && b.WorkGroup !== 'analytics')
        throw new AwsError('InvalidRequestException', `WorkGroup ${b.WorkGroup} is not found.`);
      return {
        WorkGroup: {
          Name: b.WorkGroup,
          State: 'ENABLED',
          Configuration: {
            EngineVersion: {
              SelectedEngineVersion: 'AUTO',
              EffectiveEngineVersion: 'Athena engine version 3',
            },
          },
        },
      };
    },
    ListQueryExecutions(b) {
      const wg = String(b.WorkGroup ?? 'primary');
      return {
        QueryExecutionIds: [...executions.values()]
          .filter((e) => e.workgroup === wg)
          .map((e) => e.id)
          .reverse()
          .slice(0, 50),
      };
    },
    BatchGetQueryExecution(b) {
      const ids = (b.QueryExecutionIds as string[]) ?? [];
      return {
        QueryExecutions: ids.flatMap((id) =>
          executions.has(id) ? [view(executions.get(id) as Execution)] : [],
        ),
        UnprocessedQueryExecutionIds: [],
      };
    },
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = (status: number, body: unknown, type?: string) => {
        res.writeHead(status, {
          'content-type': 'application/x-amz-json-1.1',
          'x-amzn-requestid': randomUUID(),
          ...(type ? { 'x-amzn-errortype': type } : {}),
        });
        res.end(JSON.stringify(body));
      };
      try {
        const target = String(req.headers['x-amz-target'] ?? '');
        const [service, op] = target.split('.');
        if (req.method !== 'POST' || service !== 'AmazonAthena' || !ops[op])
          throw new AwsError('UnknownOperationException', `Unknown operation ${target}`);
        const auth = String(req.headers.authorization ?? '');
        if (!auth.includes(`Credential=${options.accessKeyId}/`))
          throw new AwsError(
            'UnrecognizedClientException',
            'The security token included in the request is invalid.',
          );
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        reply(200, ops[op](body));
      } catch (err) {
        const e =
          err instanceof AwsError ? err : new AwsError('InternalServerException', (err as Error).message);
        reply(
          e.type === 'InternalServerException' ? 500 : 400,
          { __type: e.type, Message: e.message },
          e.type,
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    databases,
    executions,
    queries,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
