// Shared pieces for engines whose statements run as one request answering a whole (bounded) result and that
// have no transactions the portal drives: HTTP engines (Trino, Druid), key-value and document engines. Their
// exports stream the bounded result in batches, and their sessions run statements one by one.
import { unsupported } from './errors.js';
import type { ExecOptions, ExecResult, ParamValue, ProviderSession, StreamBatch } from './types.js';

/** A finished result as export batches: at least one batch (so an empty result still names its fields). */
export function* resultBatches(r: ExecResult, batchSize: number): Iterable<StreamBatch> {
  const types = r.columnTypes ? r.fields.map((f) => String(r.columnTypes?.[f])) : undefined;
  const rows = r.rows.map((row) => r.fields.map((f) => row[f]));
  for (let i = 0; i === 0 || i < rows.length; i += batchSize)
    yield { fields: r.fields, ...(types ? { columnTypes: types } : {}), rows: rows.slice(i, i + batchSize) };
}

/** A session that runs statements one by one; BEGIN/COMMIT/ROLLBACK answer why the engine has none here. */
export function sessionWithoutTransactions(
  query: (sql: string, params: ParamValue[], opts: ExecOptions) => Promise<ExecResult>,
  reason: string,
): ProviderSession {
  const noTx = async () => {
    throw unsupported(reason);
  };
  return { query, begin: noTx, commit: noTx, rollback: noTx, close: async () => undefined };
}
