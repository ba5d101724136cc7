// One Athena statement as a job: StartQueryExecution (database, workgroup, output location), GetQueryExecution
// polled with a growing pause until the job settles, then GetQueryResults page by page (NextToken). The
// first row of a SELECT's first page is the header Athena adds and is skipped. Values arrive as text and are
// typed from the result metadata: small integers and floating types as numbers, bigint as a number when it
// is a safe integer and an exact string otherwise, decimal as its exact text, booleans as booleans,
// everything else (dates, arrays, maps, rows) as Athena's text. AWS errors map onto provider error kinds.
import {
  type AthenaClient,
  type ColumnInfo,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  type QueryExecution,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { ProviderError, queryError } from '../errors.js';

export interface JobSettings {
  database?: string;
  workgroup: string;
  outputLocation?: string;
}

export interface JobPage {
  fields: string[];
  types: string[];
  rows: unknown[][];
  next?: string;
  updateCount?: number;
}

/** Maps an SDK failure: refused credentials are authentication, bad requests query errors, the rest connection. */
export function mapAthenaError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const message = e?.message ?? String(err);
  const name = e?.name ?? '';
  if (
    /UnrecognizedClient|InvalidSignature|SignatureDoesNotMatch|AccessDenied|ExpiredToken|CredentialsProviderError/i.test(
      name,
    )
  )
    return new ProviderError('authentication', `Athena refused the credentials: ${message}`);
  if (
    name === 'InvalidRequestException' ||
    name === 'ResourceNotFoundException' ||
    name === 'MetadataException'
  )
    return queryError(message, name);
  if (name === 'TooManyRequestsException') return new ProviderError('pool_exhausted', message, name);
  return new ProviderError('connection', `Athena request failed: ${message}`, name || undefined);
}

/** Trino/Athena read OFFSET before LIMIT: a trailing `LIMIT n OFFSET m` is sent as `OFFSET m LIMIT n`. */
export function transposeLimitOffset(sql: string): string {
  return sql.replace(/\bLIMIT\s+(\d+)\s+OFFSET\s+(\d+)(\s*)$/i, 'OFFSET $2 LIMIT $1$3');
}

export async function startJob(client: AthenaClient, sql: string, s: JobSettings): Promise<string> {
  const out = await client.send(
    new StartQueryExecutionCommand({
      QueryString: sql,
      WorkGroup: s.workgroup,
      ...(s.database ? { QueryExecutionContext: { Database: s.database } } : {}),
      ...(s.outputLocation ? { ResultConfiguration: { OutputLocation: s.outputLocation } } : {}),
    }),
  );
  if (!out.QueryExecutionId) throw new ProviderError('connection', 'Athena answered no query execution id');
  return out.QueryExecutionId;
}

export async function stopJob(client: AthenaClient, id: string): Promise<void> {
  await client.send(new StopQueryExecutionCommand({ QueryExecutionId: id }));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until the job leaves QUEUED/RUNNING; `stopped()` ends the wait early (the deadline stopped it). */
export async function awaitJob(
  client: AthenaClient,
  id: string,
  stopped: () => boolean,
): Promise<QueryExecution> {
  let pause = 25;
  for (;;) {
    const out = await client.send(new GetQueryExecutionCommand({ QueryExecutionId: id }));
    const q = out.QueryExecution ?? {};
    const state = q.Status?.State;
    if (state === 'SUCCEEDED') return q;
    if (state === 'FAILED')
      throw queryError(
        q.Status?.StateChangeReason ?? 'The query failed',
        q.Status?.AthenaError?.ErrorType?.toString(),
      );
    if (state === 'CANCELLED') throw new ProviderError('cancelled', 'The query was stopped');
    if (stopped()) throw new ProviderError('cancelled', 'The query was stopped');
    await sleep(pause);
    pause = Math.min(pause * 2, 1_000);
  }
}

function typed(type: string, v: string | undefined): unknown {
  if (v === undefined) return null;
  switch (type.toLowerCase()) {
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'int':
    case 'double':
    case 'float':
    case 'real': {
      const n = Number(v);
      return Number.isFinite(n) ? n : v;
    }
    case 'bigint': {
      if (!/^-?\d+$/.test(v)) return v;
      const b = BigInt(v);
      return b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : v;
    }
    case 'boolean':
      return v === 'true' ? true : v === 'false' ? false : v;
    default:
      return v;
  }
}

/** One page of results; `first` says whether it is the first page (a SELECT's header row is skipped). */
export async function readPage(
  client: AthenaClient,
  id: string,
  q: QueryExecution,
  maxResults: number,
  next: string | undefined,
): Promise<JobPage> {
  const out = await client.send(
    new GetQueryResultsCommand({
      QueryExecutionId: id,
      MaxResults: Math.max(1, Math.min(1000, maxResults)),
      ...(next ? { NextToken: next } : {}),
    }),
  );
  const info: ColumnInfo[] = out.ResultSet?.ResultSetMetadata?.ColumnInfo ?? [];
  const fields = info.map((c) => c.Label ?? c.Name ?? '');
  const types = info.map((c) => c.Type ?? 'varchar');
  let raw = out.ResultSet?.Rows ?? [];
  const select = q.StatementType === 'DML' && (q.SubstatementType ?? 'SELECT').toUpperCase() === 'SELECT';
  if (!next && select && raw.length > 0) raw = raw.slice(1);
  return {
    fields,
    types,
    rows: raw.map((r) => types.map((t, i) => typed(t, r.Data?.[i]?.VarCharValue))),
    ...(out.NextToken ? { next: out.NextToken } : {}),
    ...(typeof out.UpdateCount === 'number' ? { updateCount: out.UpdateCount } : {}),
  };
}
